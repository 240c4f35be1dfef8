/*  Crossword fill-in: the search relation and its search orders.

    The puzzle arrives as facts (see load_puzzle/3): the listed words as
    character lists, the sites as lists of R-C cell coordinates, and the
    predefined letters.  Every open cell becomes one logical variable shared
    by the sites through it, so placing a word is unification and a crossing
    letter is checked for free.

    Strategies (the Python engine mirrors each one step for step):

      given   words in listed order; each word tries the remaining sites in
              site order (by number, across before down).
      sorted  as given, but words and sites in length-frequency order: rare
              lengths first, ties to the longer length, stable otherwise.
      mrv     forward checking.  Every open site keeps a domain: the distinct
              words with a copy left that fit the letters in the site, in
              order of first listing.  Next the open site with the smallest
              domain; ties to more crossings, then to the lower site index.
              Fails at once when an open site has an empty domain.  Each
              domain word is placed in turn; then the domains of the filled
              site's neighbours are filtered again and a word whose last
              copy was used leaves every other domain.
      ac3     mrv, after making the domains arc consistent: D(x) loses u
              when no v in D(y) has v[j] = u[i], for a crossing at position
              i of x and j of y (v may be u itself: only letters count).
              The queue starts with every arc x->y, x in site order, then
              x's crossings in order of position in x; when D(x) shrinks,
              the arcs z->x of x's crossings (in the same order) not queued
              are appended.  The fixpoint does not depend on that order.
              A domain that empties ends the pass: the search then fails at
              its first step, 0 nodes and 1 backtrack.
      lcv     mrv's choice of site, but the chosen site's words are tried
              least constraining first: cost(u) = the sum, over the
              crossings of the site with a site t still open, of the words
              of D(t) whose letter at the crossing differs from u's;
              ascending cost, ties in domain order.
      cs50    ac3's domains, then lcv's search (CS50's crossword solver:
              arc consistency, mrv with the degree tie-break, lcv).
      cbj     mrv with conflict-directed backjumping (FC-CBJ, Prosser
              1993).  Depth d = the number of sites filled when a site is
              chosen (the first choice is depth 0).  Each open site s keeps
              pruned(s), the depths to blame for the words D(s) lost: a
              placement at depth d that shrinks D(s) adds d, except that a
              word used up that leaves D(s) adds the depths of every
              placement of a copy of it (blaming the last copy alone would
              lose solutions).  At depth d with chosen site b: if D(b) is
              empty (a dead end) the conflict set is pruned(b).  Else CS =
              {} and each word of D(b) is placed in turn and depth d+1
              searched; once the subtree is exhausted with conflict set C':
              if no solution was found at or below this level since it was
              entered and d is not in C', the level gives up its other
              words and answers C' (the backjump); otherwise, with no
              solution yet, CS := CS + (C' - {d}).  When all words are
              tried the answer is {0, ..., d-1} if a solution was found
              below (chronological, so enumeration stays complete), else
              CS + pruned(b).  Solutions and their order are mrv's; only
              the counts differ (never more nodes).

      wdeg    bitset domains, letter-level arc consistency, dom/wdeg choice,
              look-ahead word order, regions and restarts: the module wdeg
              (prolog/wdeg.pl), which mirrors pybridge/wdeg.py, whose header
              is its specification.  It reads a dictionary loaded once with
              wdeg:load_dictionary/2, not the word/2 facts: its run/5
              strategy is wdeg(Key), Key the dictionary's.

    A seed (run/5) applies to mrv, ac3, lcv, cs50, cbj and wdeg (given and
    sorted take none).  The PRNG is Knuth's MMIX LCG: state0 = Seed mod 2^64, next =
    (state * 6364136223846793005 + 1442695040888963407) mod 2^64, a draw is
    the new state >> 33, random_below(N) = draw mod N.  It is used only at
    the start: first a Fisher-Yates shuffle of the distinct words (positions
    in order of first listing; for I from D-1 down to 1, J = random_below(I+1),
    swap positions I and J), whose order then replaces first listing in
    every domain; then one draw per site, in site order, which breaks site
    ties before the index: key (domain size, -crossings, draw, index).
    Without a seed every draw is 0 and the order is the unseeded one.

    Identical words are interchangeable: in given/sorted a copy of a word
    only goes to a site after the site of its previous copy; the domain
    strategies try each distinct word once.  So every grid is found once.

    Counters: a node is a word placed in a site (a unification that
    succeeded); a backtrack is a dead end: a tried word that clashes with its
    site (given, sorted) or an open site left with an empty domain (the
    domain strategies).

    No I/O here: the caller reads the result of run/5.
*/

:- module(crossword,
          [ load_puzzle/3,              % +Words, +Sites, +Givens
            run/4,                      % +Strategy, +Mode, +TimeLimit, -Result
            run/5,                      % +Strategy, +Seed, +Mode, +TimeLimit, -Result
            solve/8,                    % +Strategy, +Seed, +Mode, +TimeLimit,
                                        % +WordsText, +SitesText, +GivensText, -Answer
            reset/0
          ]).

%   Arithmetic compiled inline: the search is mostly counting and
%   comparing.  The flag reverts when this file is loaded.
:- set_prolog_flag(optimise, true).

%   A search of a small puzzle builds a few hundred kilobytes that are all
%   freed when it returns; with the default free space (256 cells) nearly
%   every search of a P-99 puzzle ran the garbage collector, a tenth of its
%   time.  A megabyte of room (in the loading thread) spares that.
:- set_prolog_stack(global, min_free(131072)).

:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(library(assoc)).
:- use_module(library(error)).
:- use_module(library(ordsets)).
:- use_module(library(pairs)).
:- use_module(library(time)).
:- use_module(wdeg, [fills/5]).

:- dynamic
    word/2,                             % word(Index, Chars)
    site/2,                             % site(Index, Cells)
    given/3,                            % given(Row, Col, Char)
    found/1.                            % found(String): a stored solution

%!  reset is det.
%
%   Forget the puzzle, the stored solutions and the counters.

reset :-
    retractall(word(_, _)),
    retractall(site(_, _)),
    retractall(given(_, _, _)),
    retractall(found(_)),
    reset_counters.

%   The counters are global variables (flag/3 takes a mutex each time);
%   count(+Name) adds one.
reset_counters :-
    nb_setval(cw_nodes, 0),
    nb_setval(cw_backtracks, 0),
    nb_setval(cw_solutions, 0),
    nb_setval(cw_leaves, 0).

count(Name) :-
    nb_getval(Name, N0),
    N is N0 + 1,
    nb_setval(Name, N).

%!  load_puzzle(+Words:list(list(code)), +Sites:list(list(pair)),
%!              +Givens:list(compound)) is det.
%
%   Replace the puzzle by a new one.  Words are code lists (the caller never
%   writes text into Prolog source), Sites are lists of Row-Col cells in
%   site order, Givens are g(Row, Col, Code) terms.
%
%   ?- load_puzzle([`ab`, `ac`], [[0-0, 0-1], [0-0, 1-0]], []).

load_puzzle(Words, Sites, Givens) :-
    reset,
    forall(nth0(I, Words, Codes),
           ( codes_chars(Codes, Chars), assertz(word(I, Chars)) )),
    forall(nth0(I, Sites, Cells), assertz(site(I, Cells))),
    forall(member(g(R, C, Code), Givens),
           ( char_code(Char, Code), assertz(given(R, C, Char)) )).

codes_chars(Codes, Chars) :-
    maplist(code_char, Codes, Chars).

code_char(Code, Char) :-
    char_code(Char, Code).

%!  run(+Strategy, +Mode, +TimeLimit, -Result) is det.
%!  run(+Strategy, +Seed, +Mode, +TimeLimit, -Result) is det.
%
%   Search the loaded puzzle.  Strategy is given, sorted, mrv, ac3, lcv,
%   cs50, cbj or wdeg(Key), Key an integer under which wdeg.pl keeps a
%   dictionary (the puzzle's words are then not read: load_puzzle([], ...)
%   will do).  Seed is none (run/4) or an integer >= 0 for
%   the random tie-breaks and shuffled domains of the domain strategies
%   (see the header).  Mode is first(N) (stop after N solutions),
%   all, or count (count every solution without keeping them).  TimeLimit
%   is a positive number of seconds or none.  Result is
%   result(Status, Solutions, Count, Nodes, Backtracks) where Status is
%   solved, unsolvable or timeout and each solution is one string: the
%   words of all sites in site order, run together (a string crosses to
%   Python far faster than a list of code lists).
%
%   ?- load_puzzle([`ab`, `ac`], [[0-0, 0-1], [0-0, 1-0]], []),
%      run(mrv, all, none, R).
%   R = result(solved, ["abac", "acab"], 2, 4, 0).

run(Strategy, Mode, TimeLimit, Result) :-
    run(Strategy, none, Mode, TimeLimit, Result).

run(Strategy, Seed, Mode, TimeLimit, Result) :-
    findall(W, word(_, W), Words),
    findall(Cells, site(_, Cells), Sites),
    findall(g(R-C, Char), given(R, C, Char), Givens),
    run_puzzle(p(Words, Sites, Givens), Strategy, Seed, Mode, TimeLimit, Result).

%!  solve(+Strategy, +Seed, +Mode, +TimeLimit, +WordsText, +SitesText,
%!        +GivensText, -Answer) is det.
%
%   run/5 in one call, for the Python bridge: the puzzle arrives as three
%   strings, which are data and never read as terms, and nothing is
%   asserted.  WordsText holds each word followed by a newline.  SitesText
%   holds each site as one line of characters, two per cell, whose codes
%   are 256 + Row and 256 + Col (below 65536); GivensText three characters
%   per predefined letter: 256 + Row, 256 + Col and the letter.  Answer is the
%   string "Status Count Nodes Backtracks\n" followed by each solution
%   and a newline.

solve(Strategy, Seed, Mode, TimeLimit, WordsText, SitesText, GivensText, Answer) :-
    text_lines(WordsText, WordLines),
    maplist(string_chars, WordLines, Words),
    text_lines(SitesText, SiteLines),
    maplist(site_line, SiteLines, Sites),
    string_codes(GivensText, GivenCodes),
    given_codes(GivenCodes, Givens),
    Puzzle = p(Words, Sites, Givens),
    run_puzzle(Puzzle, Strategy, Seed, Mode, TimeLimit, Result),
    Result = result(Status, Solutions, Count, Nodes, Backtracks),
    format(string(Head), "~w ~d ~d ~d~n", [Status, Count, Nodes, Backtracks]),
    foldl(solution_line, Solutions, Lines, []),
    atomics_to_string([Head|Lines], Answer).

%   text_lines(+Text, -Lines): the lines of Text, each ended by a newline.
text_lines(Text, Lines) :-
    split_string(Text, "\n", "", Parts),
    once(append(Lines, [_], Parts)).

%   A cell is only compared with other cells here, so it becomes one
%   integer (a key keysort/2 orders faster than Row-Col): R0 * 65536 + C0
%   from its two codes (each below 65536).
site_line(Line, Cells) :-
    string_codes(Line, Codes),
    code_cells(Codes, Cells).

code_cells([], []).
code_cells([R0, C0|Codes], [Cell|Cells]) :-
    Cell is R0 * 65536 + C0,
    code_cells(Codes, Cells).

given_codes([], []).
given_codes([R0, C0, Code|Codes], [g(Cell, Char)|Givens]) :-
    Cell is R0 * 65536 + C0,
    char_code(Char, Code),
    given_codes(Codes, Givens).

solution_line(Solution, [Solution, "\n"|Tail], Tail).

%   run_puzzle(+Puzzle, +Strategy, +Seed, +Mode, +TimeLimit, -Result):
%   run/5 on Puzzle = p(Words, Sites, Givens): Words as char lists, Sites
%   as lists of cells, Givens as g(Cell, Char) terms.  A cell is any ground
%   term that equals another exactly when the cells are the same (Row-Col,
%   or one integer).
run_puzzle(p(Words, Sites, Givens), Strategy, Seed, Mode, TimeLimit,
           result(Status, Solutions, Count, Nodes, Backtracks)) :-
    known_strategy(Strategy),
    seed_applies(Seed, Strategy),
    reset_counters,
    retractall(found(_)),
    board(Sites, Givens, Board, Links),
    mode_limit(Mode, Max, Keep),
    listed(Strategy, p(Words, Sites, Givens), Listed),
    Collect = collect(Strategy, Seed, Listed, Board, Links, Max, Keep),
    (   catch(within(TimeLimit, Collect), time_limit_exceeded, fail)
    ->  TimedOut = false
    ;   TimedOut = true
    ),
    nb_getval(cw_solutions, Count),
    nb_getval(cw_nodes, Nodes),
    nb_getval(cw_backtracks, Backtracks),
    findall(S, found(S), Solutions),
    retractall(found(_)),
    status(TimedOut, Count, Status).

%   What a strategy reads of the puzzle besides the board: wdeg its sites
%   and letters (its words are the dictionary it was given), the others the
%   listed words.
listed(wdeg(_), p(_, Sites, Givens), Sites-Givens) :- !.
listed(_, p(Words, _, _), Words).

known_strategy(wdeg(Key)) :-
    !,
    must_be(integer, Key).
known_strategy(Strategy) :-
    must_be(oneof([given, sorted, mrv, ac3, lcv, cs50, cbj]), Strategy).

seed_applies(none, _) :- !.
seed_applies(Seed, Strategy) :-
    must_be(nonneg, Seed),
    (   seeded_strategy(Strategy)
    ->  true
    ;   domain_error(seeded_strategy, Strategy)
    ).

seeded_strategy(wdeg(_)).
seeded_strategy(Strategy) :-
    domain_strategy(Strategy, _, _).

mode_limit(first(N), N, true).
mode_limit(all, none, true).
mode_limit(count, none, false).

within(none, Goal) :- !, call(Goal).
within(Seconds, Goal) :- call_with_time_limit(Seconds, Goal).

status(true, _, timeout) :- !.
status(false, 0, unsolvable) :- !.
status(false, _, solved).

%   collect(+Strategy, +Seed, +Words, +Board, +Links, +Max, +Keep) succeeds
%   once, after Max solutions or when the search space is exhausted.
collect(Strategy, Seed, Words, Board, Links, Max, Keep) :-
    (   search(Strategy, Seed, Words, Board, Links),
        count(cw_solutions),
        keep_solution(Keep, Board),
        Max \== none,
        nb_getval(cw_solutions, N),
        N >= Max
    ->  true
    ;   true
    ).

keep_solution(false, _).
keep_solution(true, Board) :-
    site_chars(Board, Chars),
    string_chars(String, Chars),
    assertz(found(String)).

%   site_chars(+Board, -Chars): append/2, which would link must_be/2 on
%   first use (under a time limit, where an interrupt can leave it undefined).
site_chars([], []).
site_chars([Vars|Sites], Chars) :-
    append(Vars, Rest, Chars),
    site_chars(Sites, Rest).

%!  board(+Sites, +Givens, -Board:list(list(var)), -Links:list(pair)) is det.
%
%   One variable per open cell, shared by the sites through it; Board holds
%   each site's variables in site order, predefined letters already bound.
%   Links holds, for every site in order, I-Crossings: one x(P, T, Q) per
%   cell it shares (position P here, Q in site T), sorted.  One keysort of
%   every cell occurrence finds both (an assoc of the cells costs more).

board(SiteCells, Givens, Board, Links) :-
    foldl(numbered, SiteCells, Sites, 0, _),
    maplist(given_entry, Givens, GivenEntries),
    foldl(site_entries, Sites, Board, Entries, GivenEntries),
    keysort(Entries, Sorted),
    shared_cells(Sorted, Pairs, []),
    msort(Pairs, SortedPairs),
    group_pairs_by_key(SortedPairs, Grouped),
    site_links(Sites, Grouped, Links).

numbered(Item, I-Item, I, I1) :-
    I1 is I + 1.

given_entry(g(Cell, Char), Cell-g(Char)).

%   site_entries(+I-Cells, -Vars, -Entries, ?Tail): Cell-v(I, P, Var) for
%   each cell of site I, a fresh variable at each position P.
site_entries(I-Cells, Vars, Entries, Tail) :-
    cell_entries(Cells, I, 0, Vars, Entries, Tail).

cell_entries([], _, _, [], Tail, Tail).
cell_entries([Cell|Cells], I, P, [V|Vs], [Cell-v(I, P, V)|Entries], Tail) :-
    P1 is P + 1,
    cell_entries(Cells, I, P1, Vs, Entries, Tail).

%   shared_cells(+Sorted, -Pairs, ?Tail): the occurrences of each cell
%   (and its predefined letter) share one value; I-x(P, T, Q) for every two
%   sites I and T through it.  Most cells belong to one site and have no
%   letter: they are passed over.
shared_cells([], Tail, Tail).
shared_cells([Cell-O|Es], Pairs, Tail) :-
    (   Es = [Next-O1|Es1],
        Next == Cell
    ->  (   O = v(I, P, V),                    % the usual crossing: two sites
            O1 = v(T, Q, V1),
            I \== T,
            \+ ( Es1 = [Other-_|_], Other == Cell )
        ->  V = V1,
            Pairs = [I-x(P, T, Q), T-x(Q, I, P)|Pairs1],
            shared_cells(Es1, Pairs1, Tail)
        ;   same_cell(Es, Cell, Os, Rest),
            cell_links([O|Os], Pairs, Pairs1),
            shared_cells(Rest, Pairs1, Tail)
        )
    ;   shared_cells(Es, Pairs, Tail)
    ).

same_cell([Next-O|Es], Cell, [O|Os], Rest) :-
    Next == Cell,
    !,
    same_cell(Es, Cell, Os, Rest).
same_cell(Rest, _, [], Rest).

cell_links(Occurrences, Pairs, Tail) :-
    same_value(Occurrences, _),
    foldl(occurrence_links(Occurrences), Occurrences, Pairs, Tail).

same_value([], _).
same_value([v(_, _, V)|Os], V) :- same_value(Os, V).
same_value([g(V)|Os], V) :- same_value(Os, V).

occurrence_links(Occurrences, v(I, P, _), Pairs, Tail) :-
    !,
    foldl(link(I, P), Occurrences, Pairs, Tail).
occurrence_links(_, g(_), Tail, Tail).

link(I, P, v(T, Q, _), [I-x(P, T, Q)|Tail], Tail) :-
    I \== T,
    !.
link(_, _, _, Tail, Tail).

%   site_links(+Sites, +Grouped, -Links): Grouped (by site, ascending) with
%   an empty list for each site that crosses none.
site_links([], _, []).
site_links([I-_|Sites], Grouped, [I-Xs|Links]) :-
    (   Grouped = [I-Xs0|Rest]
    ->  Xs = Xs0
    ;   Xs = [],
        Rest = Grouped
    ),
    site_links(Sites, Rest, Links).

%!  search(+Strategy, +Seed, +Words, +Board, +Links) is nondet.
%
%   Bind every site of Board to one of Words, each word used exactly once.
%   Links are the sites' crossings (see board/4).

search(given, _, Words, Board, _) :-
    numbered_sites(Board, Sites),
    place_in_order(Words, Sites).
search(sorted, _, Words0, Board, _) :-
    length_frequency_order(Words0, Words),
    length_frequency_order(Board, Board1),
    numbered_sites(Board1, Sites),
    place_in_order(Words, Sites).
search(wdeg(Key), Seed, Sites-Givens, Board, _) :-
    !,
    findall(Cell-Code, ( member(g(Cell, Char), Givens), char_code(Char, Code) ), Letters),
    fills(Key, Seed, Sites, Letters, Words),
    maplist(word_vars, Words, Board).
search(Strategy, Seed, Listed, Board, Links) :-
    domain_strategy(Strategy, Consistency, Values),
    length(Board, NSites),
    distinct_words(Listed, Seed, NSites, Words, Counts, Draws),
    open_sites(Board, Links, Words, Counts, Draws, State),
    consistent(Consistency, State),
    domain_search(Strategy, State, Values).

%   domain_strategy(?Strategy, ?Consistency, ?Values): what a domain
%   strategy does before the search, and in which order it tries words.
domain_strategy(mrv, forward, domain).
domain_strategy(ac3, arcs, domain).
domain_strategy(lcv, forward, least_constraining).
domain_strategy(cs50, arcs, least_constraining).
domain_strategy(cbj, forward, domain).

domain_search(cbj, State, _) :-
    !,
    cbj(State).
domain_search(_, State, Values) :-
    arg(6, State, NSites),
    mrv(NSites, State, Values).

word_vars(Word, Vars) :-
    string_chars(Word, Vars).

%   length_frequency_order(+Lists, -Sorted): Lists ordered by how often
%   their length occurs (rare first), ties to the longer length, stable
%   otherwise (keysort/2 is stable).
length_frequency_order(Items, Sorted) :-
    maplist(list_length, Items, Lengths),
    msort(Lengths, SortedLengths),
    clumped(SortedLengths, Freqs),
    maplist(frequency_key(Freqs), Items, Lengths, Keyed),
    keysort(Keyed, SortedKeyed),
    pairs_values(SortedKeyed, Sorted).

list_length(List, Length) :-
    length(List, Length).

frequency_key(Freqs, Item, Length, (F-Neg)-Item) :-
    memberchk(Length-F, Freqs),
    Neg is -Length.

numbered_sites(Board, Sites) :-
    foldl(number_site, Board, Sites, 0, _).

number_site(Vars, s(P, L, Vars), P, P1) :-
    length(Vars, L),
    P1 is P + 1.

%   place_in_order(+Words, +Sites): each word in turn takes one of the
%   remaining sites, tried in order.  A word equal to an earlier word only
%   takes a site after the one its previous copy took.
place_in_order(Words, Sites) :-
    copy_links(Words, Items),
    place_items(Items, Sites).

copy_links(Words, Items) :-
    empty_assoc(Seen),
    foldl(copy_link, Words, Items, Seen, _).

copy_link(Chars, w(Chars, L, Pos, Prev), Seen0, Seen) :-
    length(Chars, L),
    (   get_assoc(Chars, Seen0, Prev)
    ->  true
    ;   Prev = -1
    ),
    put_assoc(Chars, Seen0, Pos, Seen).

place_items([], _).
place_items([w(Chars, L, Pos, Prev)|Items], Sites) :-
    take_site(Sites, Chars, L, Prev, Pos, Rest),
    place_items(Items, Rest).

take_site([S|Ss], Chars, L, Prev, Pos, Rest) :-
    S = s(P, SL, Vars),
    (   SL =:= L,
        P > Prev,
        fill(Vars, Chars),
        Pos = P,
        Rest = Ss
    ;   Rest = [S|Rest1],
        take_site(Ss, Chars, L, Prev, Pos, Rest1)
    ).

fill(Vars, Chars) :-
    (   Vars = Chars
    ->  count(cw_nodes)
    ;   count(cw_backtracks),
        fail
    ).

%   distinct_words(+Listed, +Seed, +NSites, -Words, -Counts, -Draws): Words
%   is words(W1, ...) holding each distinct word of Listed once, in order of first
%   listing (shuffled with a seed); Counts is counts(C1, ...) with how many
%   copies of each are still to be placed; Draws holds each site's random
%   tie-break (all 0 without a seed).  Counts is updated with setarg/3,
%   which is undone on backtracking.
distinct_words(Listed, Seed, NSites, Words, Counts, Draws) :-
    (   sort(Listed, Set),
        same_length(Set, Listed)        % no word twice (P-99, dictionaries)
    ->  maplist(once_listed, Listed, WordCounts0)
    ;   foldl(word_index, Listed, Pairs, 0, _),
        msort(Pairs, Sorted),
        group_pairs_by_key(Sorted, Groups),
        maplist(first_and_count, Groups, Keyed),
        keysort(Keyed, ByFirst),
        pairs_values(ByFirst, WordCounts0)
    ),
    random_order(Seed, NSites, WordCounts0, WordCounts, Draws),
    pairs_keys_values(WordCounts, Distinct, Cs),
    Words =.. [words|Distinct],
    Counts =.. [counts|Cs].

once_listed(W, W-1).

word_index(W, W-I, I, I1) :-
    I1 is I + 1.

%   Indices come sorted, so the first is where the word was first listed.
first_and_count(W-[First|More], First-(W-N)) :-
    length([First|More], N).

%   random_order(+Seed, +NSites, +Items0, -Items, -Draws): Items0 shuffled
%   (Fisher-Yates) and one draw per site, in that order (see the header).
random_order(none, NSites, Items, Items, Draws) :-
    !,
    length(Draws, NSites),
    zeros(Draws).
random_order(Seed, NSites, Items0, Items, Draws) :-
    State0 is Seed mod 2^64,
    Slots =.. [items|Items0],
    length(Items0, D),
    Last is D - 1,
    shuffle_from(Last, Slots, State0, State),
    Slots =.. [_|Items],
    prng_draws(NSites, State, Draws, _).

zeros([]).
zeros([0|Zs]) :-
    zeros(Zs).

%   shuffle_from(+I, !Slots, +State0, -State): for I down to 1, swap the
%   items at positions I and random_below(I+1) (0-based).
shuffle_from(I, Slots, State0, State) :-
    (   I < 1
    ->  State = State0
    ;   Bound is I + 1,
        random_below(Bound, State0, State1, J),
        swap_args(I, J, Slots),
        I1 is I - 1,
        shuffle_from(I1, Slots, State1, State)
    ).

swap_args(I, J, Slots) :-
    A is I + 1,
    B is J + 1,
    arg(A, Slots, X),
    arg(B, Slots, Y),
    setarg(A, Slots, Y),
    setarg(B, Slots, X).

%   prng_draws(+N, +State0, -Draws, -State): N draws of the LCG.
prng_draws(N, State0, Draws, State) :-
    length(Draws, N),
    foldl(prng_draw, Draws, State0, State).

prng_draw(Draw, State0, State) :-
    State is (State0 * 6364136223846793005 + 1442695040888963407) mod 2^64,
    Draw is State >> 33.

random_below(Bound, State0, State, Value) :-
    prng_draw(Draw, State0, State),
    Value is Draw mod Bound.

%   open_sites(+Board, +Links, +Words, +Counts, +Draws, -State): the
%   search state s(Keys, Domains, Sites, Words, Counts, NSites, Filled,
%   Open).  Argument I+1 of Keys, Domains and Sites is about site I.  Domains
%   holds its domain: the indices (into Words) of the words that fit, in
%   order; it may still hold words used up since it was filtered (the key
%   counts them out; see drop_word/4).  Sites holds site(Vars,
%   Crossings, Neighbours, Same): Crossings lists x(I, T, J), position I
%   of this site is position J of site T; Neighbours is the ordered set of
%   those T + 1, Same the arguments of the sites of its length.  Keys
%   order the sites by smallest domain, then most crossings, then the
%   random draw (0 without a seed), then index.  All but the domain size
%   are fixed, so they make one rank per site, and Key = DomainSize *
%   NSites + Rank orders sites exactly so with one integer comparison; a
%   filled site's key is Filled, above every other.  Open holds the
%   site arguments, the open sites first (see choose/4).  The search
%   changes Keys, Domains and Open with setarg/3, so backtracking puts
%   them back.
open_sites(Board, Links, Words, Counts, Draws,
           s(Keys, Domains, Sites, Words, Counts, NSites, Filled, Open)) :-
    Words =.. [_|WordList],
    by_length(WordList, ByLength),
    length(Board, NSites),
    tie_ranks(Links, Draws, Ranks),
    by_length(Board, SameLength),
    open_site_entries(Links, Board, Ranks, c(ByLength, SameLength, Words, Counts, NSites),
                      KeyList, DomainList, SiteList),
    Keys =.. [keys|KeyList],
    Domains =.. [domains|DomainList],
    Sites =.. [sites|SiteList],
    functor(Words, _, NWords),
    Filled is (NWords + 2) * NSites,
    findall(A, between(1, NSites, A), Args),
    Open =.. [open|Args].

%   tie_ranks(+Links, +Draws, -Ranks): each site's place (from 0) in the
%   order of most crossings, then draw, then index.
tie_ranks(Links, Draws, Ranks) :-
    maplist(tie_key, Links, Draws, Keys),
    msort(Keys, Sorted),
    foldl(ranked, Sorted, Pairs, 0, _),
    keysort(Pairs, ByIndex),
    pairs_values(ByIndex, Ranks).

tie_key(I-Crossings, Draw, t(Neg, Draw, I)) :-
    length(Crossings, N),
    Neg is -N.

ranked(t(_, _, I), I-Rank, Rank, Next) :-
    Next is Rank + 1.

%   by_length(+Lists, -ByLength): Length-Positions pairs, Positions the
%   1-based positions in Lists of the lists of that length, ascending: the
%   word ids of each length, and the arguments (site index + 1) of the
%   sites of each length.
by_length(Lists, ByLength) :-
    foldl(position_length, Lists, Keyed, 1, _),
    msort(Keyed, Sorted),
    group_pairs_by_key(Sorted, ByLength).

position_length(List, L-P, P, Next) :-
    length(List, L),
    Next is P + 1.

%   open_site_entries(+Links, +Board, +Ranks, +Context, -Keys, -Domains,
%   -Sites): each site's entries in the state (see open_sites/6).
open_site_entries([], [], [], _, [], [], []).
open_site_entries([_-Crossings|Links], [Vars|Board], [Rank|Ranks], Context,
                  [Key|Keys], [Domain|Domains], [Site|Sites]) :-
    Context = c(ByLength, SameLength, Words, Counts, NSites),
    Site = site(Vars, Crossings, Neighbours, Same),
    crossed_sites(Crossings, Neighbours),
    length(Vars, L),
    memberchk(L-Same, SameLength),
    (   memberchk(L-Ids, ByLength)
    ->  initial_domain(Vars, Ids, Words, Counts, Domain)
    ;   Domain = []
    ),
    length(Domain, Size),
    Key is Size * NSites + Rank,
    open_site_entries(Links, Board, Ranks, Context, Keys, Domains, Sites).

%   crossed_sites(+Crossings, -Args): the ordered set of the crossed sites'
%   arguments (index + 1).
crossed_sites(Crossings, Args) :-
    crossed(Crossings, As),
    sort(As, Args).

crossed([], []).
crossed([x(_, T, _)|Xs], [A|As]) :-
    A is T + 1,
    crossed(Xs, As).

%   Every word still has a copy to place here, so a site with no letter yet
%   takes every word of its length; that shortcut matters for dictionaries.
initial_domain(Vars, Ids, Words, Counts, Domain) :-
    (   term_variables(Vars, Free),
        Free == Vars                    % no letter yet (the cells differ)
    ->  Domain = Ids
    ;   fitting(Ids, Vars, Words, Counts, Domain)
    ).

%   fitting(+Ids, +Vars, +Words, +Counts, -Fit): the words of Ids with a
%   copy left that unify with Vars, in order (include/3 with fits/4, only
%   without the closure calls).
fitting([], _, _, _, []).
fitting([Id|Ids], Vars, Words, Counts, Fit) :-
    (   arg(Id, Counts, C),
        C > 0,
        arg(Id, Words, Chars),
        \+ Vars \= Chars
    ->  Fit = [Id|Fit1]
    ;   Fit = Fit1
    ),
    fitting(Ids, Vars, Words, Counts, Fit1).

%   consistent(+Consistency, !State): the domains as the search starts:
%   as they are (forward), or arc consistent (arcs), the keys following.
consistent(forward, _).
consistent(arcs, s(Keys, Domains, Sites, Words, _, NSites, _, _)) :-
    Sites =.. [_|SiteList],
    findall(a(X, I, Y, J), ( nth0(X, SiteList, site(_, Xs, _, _)),
                             member(x(I, Y, J), Xs) ), Arcs),
    ac3(Arcs, Sites, Words, Domains),
    resized(NSites, Keys, Domains, NSites).

%   resized(+A, !Keys, +Domains, +NSites): the keys of arguments A down
%   to 1 with the sizes of their domains now.
resized(0, _, _, _) :- !.
resized(A, Keys, Domains, NSites) :-
    arg(A, Domains, D),
    length(D, Size),
    arg(A, Keys, Key0),
    Key is Size * NSites + Key0 mod NSites,
    setarg(A, Keys, Key),
    A1 is A - 1,
    resized(A1, Keys, Domains, NSites).

%   ac3(+Queue, +Sites, +Words, !Domains): revise the arc at the head of the
%   queue; when D(x) shrinks, queue the arcs into x.  Stops at the fixpoint
%   or at the first empty domain.  Domains holds D(x) at argument x+1.
ac3([], _, _, _).
ac3([Arc|Queue], Sites, Words, Domains) :-
    Arc = a(X, I, Y, J),
    X1 is X + 1,
    Y1 is Y + 1,
    arg(X1, Domains, DX),
    arg(Y1, Domains, DY),
    letters_at(DY, J, Words, Letters),
    include(letter_in(I, Words, Letters), DX, DX1),
    (   same_length(DX, DX1)
    ->  ac3(Queue, Sites, Words, Domains)
    ;   setarg(X1, Domains, DX1),
        (   DX1 == []
        ->  true
        ;   arcs_into(X, Sites, Queue, Into),
            append(Queue, Into, Queue1),
            ac3(Queue1, Sites, Words, Domains)
        )
    ).

%   arcs_into(+X, +Sites, +Queue, -Arcs): the arcs z->x along x's crossings,
%   in their order, that are not queued already.
arcs_into(X, Sites, Queue, Arcs) :-
    X1 is X + 1,
    arg(X1, Sites, site(_, Xs, _, _)),
    findall(a(Z, K, X, L), ( member(x(L, Z, K), Xs),
                             \+ memberchk(a(Z, K, X, L), Queue) ), Arcs).

%   letters_at(+Ids, +Position, +Words, -Letters): the letters the words
%   have at Position, as an ordered set.
letters_at(Ids, Position, Words, Letters) :-
    maplist(letter_at(Position, Words), Ids, All),
    sort(All, Letters).

letter_at(Position, Words, Id, Letter) :-
    arg(Id, Words, Chars),
    nth0(Position, Chars, Letter).

letter_in(Position, Words, Letters, Id) :-
    letter_at(Position, Words, Id, Letter),
    ord_memberchk(Letter, Letters).

%   mrv(+Left, !State, +Values): fill the Left open sites: the one with
%   the smallest key takes each word of its domain in turn (in Values
%   order), then the rest are filled.  A key below NSites is an empty
%   domain.
mrv(0, _, _) :- !.
mrv(Left, State, Values) :-
    choose(Left, State, Best, Key),
    State = s(_, Domains, _, _, Counts, NSites, _, _),
    (   Key < NSites
    ->  count(cw_backtracks),
        fail
    ;   true
    ),
    arg(Best, Domains, Stored),
    live(Stored, Counts, Domain),
    value_order(Values, Domain, Best, State, Ordered),
    member(Id, Ordered),
    place(State, Best, Id, none),
    Left1 is Left - 1,
    mrv(Left1, State, Values).

%   choose(+Left, !State, -Best, -Key): the argument of the open site with
%   the smallest key (keys differ), and its key; the site is marked
%   filled.  Open holds the arguments of the Left open sites first: the
%   chosen one swaps places with the last of them.
choose(Left, State, Best, Key) :-
    State = s(Keys, _, _, _, _, _, Filled, Open),
    min_open(Left, Open, Keys, Filled, 0, 0, Key, Best, At),
    arg(Left, Open, Last),
    setarg(At, Open, Last),
    setarg(Left, Open, Best),
    setarg(Best, Keys, Filled).

min_open(P, Open, Keys, Key0, Best0, At0, Key, Best, At) :-
    (   P =:= 0
    ->  Key = Key0,
        Best = Best0,
        At = At0
    ;   arg(P, Open, A),
        arg(A, Keys, K),
        P1 is P - 1,
        (   K < Key0
        ->  min_open(P1, Open, Keys, K, A, P, Key, Best, At)
        ;   min_open(P1, Open, Keys, Key0, Best0, At0, Key, Best, At)
        )
    ).

%   place(!State, +Best, +Id, +Blame): put word Id in site Best (argument)
%   and update the sites that can change: when Id is used up, the sites
%   of its length that hold it lose it (drop_word/4), and the crossed
%   sites are filtered again (refilter/3).  No other site can change, so
%   none is looked at.  Blame is none, or for cbj b(Pruned, Depths,
%   Depth) (see blame_drop/3, blame_refilter/3).
place(State, Best, Id, Blame) :-
    State = s(_, _, Sites, Words, Counts, _, _, _),
    arg(Best, Sites, site(Vars, _, Neighbours, Same)),
    arg(Id, Words, Chars),
    Vars = Chars,
    count(cw_nodes),
    arg(Id, Counts, C0),
    C is C0 - 1,
    setarg(Id, Counts, C),
    (   C =:= 0
    ->  drop_word(Same, Id, State, Blame)
    ;   true
    ),
    refilter(Neighbours, State, Blame).

%   drop_word(+Args, +Id, !State, +Blame): the open sites of Args whose
%   domain holds Id, just used up, lose it.  The word stays in the stored
%   domain and the key alone counts it out, which spares rebuilding a
%   domain per site of its length at nearly every step; live/3 drops such
%   words where a domain is read.  Id in a stored domain was live, as it
%   had a copy left until now.
drop_word([], _, _, _).
drop_word([A|As], Id, State, Blame) :-
    State = s(Keys, Domains, _, _, _, NSites, Filled, _),
    arg(A, Keys, K0),
    (   K0 =\= Filled,
        arg(A, Domains, D),
        memberchk(Id, D)
    ->  K is K0 - NSites,
        setarg(A, Keys, K),
        blame_drop(Blame, A)
    ;   true
    ),
    drop_word(As, Id, State, Blame).

%   refilter(+Args, !State, +Blame): the open sites of Args have new
%   letters; their domains keep the words that still fit, with a copy
%   left.  A domain as long as before is the same (a subset), so it stays.
refilter([], _, _).
refilter([A|As], State, Blame) :-
    State = s(Keys, Domains, Sites, Words, Counts, NSites, Filled, _),
    arg(A, Keys, K0),
    (   K0 =\= Filled
    ->  arg(A, Domains, D0),
        arg(A, Sites, site(Vars, _, _, _)),
        fitting(D0, Vars, Words, Counts, D),
        length(D, Size),
        K is Size * NSites + K0 mod NSites,
        (   K =:= K0
        ->  true
        ;   setarg(A, Keys, K),
            setarg(A, Domains, D),
            blame_refilter(Blame, A)
        )
    ;   true
    ),
    refilter(As, State, Blame).

%   live(+Stored, +Counts, -Domain): a stored domain without the words
%   used up since it was last filtered (see drop_word/4).
live([], _, []).
live([Id|Ids], Counts, Domain) :-
    (   arg(Id, Counts, C),
        C > 0
    ->  Domain = [Id|Domain1]
    ;   Domain = Domain1
    ),
    live(Ids, Counts, Domain1).

%   value_order(+Values, +Domain, +Best, +State, -Ids): the words of
%   Domain, the chosen site's, in the order they are tried.
value_order(domain, Domain, _, _, Domain).
value_order(least_constraining, Domain, Best, State, Ids) :-
    State = s(_, _, Sites, Words, _, _, _, _),
    arg(Best, Sites, site(_, Crossings, _, _)),
    open_tallies(Crossings, State, Tallies),
    maplist(lcv_keyed(Tallies, Words), Domain, Keyed),
    keysort(Keyed, Sorted),
    pairs_values(Sorted, Ids).

%   open_tallies(+Crossings, +State, -Tallies): for each crossing with a
%   site T still open, t(I, Size, Tally): position I in the chosen site,
%   the size of D(T) and Letter-Count for T's letters at the crossing.
open_tallies([], _, []).
open_tallies([x(I, T, J)|Xs], State, Tallies) :-
    State = s(Keys, Domains, _, Words, Counts, _, Filled, _),
    A is T + 1,
    (   arg(A, Keys, K),
        K =\= Filled
    ->  arg(A, Domains, Stored),
        live(Stored, Counts, DT),
        maplist(letter_at(J, Words), DT, Letters),
        msort(Letters, Sorted),
        clumped(Sorted, Tally),
        length(DT, Size),
        Tallies = [t(I, Size, Tally)|Rest]
    ;   Tallies = Rest
    ),
    open_tallies(Xs, State, Rest).

lcv_keyed(Tallies, Words, Id, Cost-Id) :-
    arg(Id, Words, Chars),
    foldl(ruled_out(Chars), Tallies, 0, Cost).

%   ruled_out(+Chars, +Tally, +Cost0, -Cost): add the words of D(T) whose
%   letter at the crossing differs from the one Chars puts there.
ruled_out(Chars, t(I, Size, Tally), Cost0, Cost) :-
    nth0(I, Chars, Letter),
    (   memberchk(Letter-Same, Tally)
    ->  true
    ;   Same = 0
    ),
    Cost is Cost0 + Size - Same.


%   cbj(!State): mrv's search with conflict-directed backjumping (see the
%   header).  Pruned holds at each site's argument the ordered set of
%   depths that pruned its domain, Copies per word the depths that placed
%   a copy of it (both setarg/3, undone on backtracking).  A level that
%   finally fails leaves its conflict set in the global variable
%   cw_conflict for its parent to read; the counter cw_leaves counts the
%   solutions, so a level sees whether any was found below it.
cbj(State) :-
    State = s(_, _, _, _, Counts, NSites, _, _),
    functor(Counts, _, N),
    length(Empty, N),
    maplist(=([]), Empty),
    Copies =.. [copies|Empty],
    length(Unpruned, NSites),
    maplist(=([]), Unpruned),
    Pruned =.. [pruned|Unpruned],
    cbj_level(NSites, State, c(Pruned, Copies), 0).

%   cbj_level(+Left, !State, +C, +Depth): fill the chosen site at Depth;
%   succeeds once per solution below.
cbj_level(0, _, _, _) :-
    !,
    count(cw_leaves).
cbj_level(Left, State, C, Depth) :-
    choose(Left, State, Best, Key),
    State = s(_, Domains, _, _, Counts, NSites, _, _),
    C = c(Pruned, _),
    (   Key < NSites                    % an empty domain
    ->  count(cw_backtracks),
        arg(Best, Pruned, Set),
        nb_setval(cw_conflict, Set),
        fail
    ;   nb_getval(cw_leaves, Before),
        arg(Best, Domains, Stored),
        live(Stored, Counts, Domain),
        cbj_words(Domain, l(Best, Left, State, C, Depth, Before), [])
    ).

%   cbj_words(+Ids, +Level, +Conflicts): try each word in turn; after a
%   subtree without solutions that did not involve Depth, fail at once
%   (the child's set stays in cw_conflict).
cbj_words([], l(Best, _, _, c(Pruned, _), Depth, Before), Conflicts) :-
    nb_getval(cw_leaves, Now),
    (   Now > Before                    % stay chronological after a solution
    ->  Last is Depth - 1,
        numlist_or_empty(0, Last, Set)
    ;   arg(Best, Pruned, Set0),
        ord_union(Conflicts, Set0, Set)
    ),
    nb_setval(cw_conflict, Set),
    fail.
cbj_words([Id|Ids], Level, Conflicts) :-
    (   cbj_place(Id, Level)
    ;   Level = l(_, _, _, _, Depth, Before),
        nb_getval(cw_leaves, Now),
        (   Now > Before
        ->  Conflicts1 = Conflicts
        ;   nb_getval(cw_conflict, Child),
            ord_memberchk(Depth, Child),
            ord_del_element(Child, Depth, Rest),
            ord_union(Conflicts, Rest, Conflicts1)
        ),
        cbj_words(Ids, Level, Conflicts1)
    ).

numlist_or_empty(Low, High, List) :-
    findall(X, between(Low, High, X), List).

cbj_place(Id, l(Best, Left, State, C, Depth, _)) :-
    C = c(Pruned, Copies),
    arg(Id, Copies, Ds0),
    ord_add_element(Ds0, Depth, Ds),
    setarg(Id, Copies, Ds),
    place(State, Best, Id, b(Pruned, Ds, Depth)),
    Left1 is Left - 1,
    Depth1 is Depth + 1,
    cbj_level(Left1, State, C, Depth1).

%   blame_drop(+Blame, +A), blame_refilter(+Blame, +A): cbj's blame for a
%   domain that shrank: when the word just placed was used up and left
%   it, every depth that placed a copy of it (blaming the last copy alone
%   would lose solutions); else the depth of this placement.  drop_word/4
%   runs before refilter/3, so a crossed site that lost the used-up word
%   is blamed on the copies (Depths holds Depth too).
blame_drop(none, _).
blame_drop(b(Pruned, Ds, _), A) :-
    arg(A, Pruned, P0),
    ord_union(P0, Ds, P),
    setarg(A, Pruned, P).

blame_refilter(none, _).
blame_refilter(b(Pruned, _, Depth), A) :-
    arg(A, Pruned, P0),
    ord_add_element(P0, Depth, P),
    setarg(A, Pruned, P).
