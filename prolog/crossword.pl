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
      mrv     next the open site with the fewest distinct words that still
              fit; ties to more crossings, then to the lower site index.
              Fails at once when an open site has no fitting word.

    Identical words are interchangeable: in given/sorted a copy of a word
    only goes to a site after the site of its previous copy; mrv tries each
    distinct word once.  So every grid is found exactly once.

    Counters: a node is a word placed in a site (a unification that
    succeeded); a backtrack is a dead end: a tried word that clashes with its
    site (given, sorted) or an open site left with no fitting word (mrv).

    No I/O here: the caller reads the result of run/4.
*/

:- module(crossword,
          [ load_puzzle/3,              % +Words, +Sites, +Givens
            run/4,                      % +Strategy, +Mode, +TimeLimit, -Result
            reset/0
          ]).

:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(library(assoc)).
:- use_module(library(pairs)).
:- use_module(library(time)).

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

reset_counters :-
    flag(cw_nodes, _, 0),
    flag(cw_backtracks, _, 0),
    flag(cw_solutions, _, 0).

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
%
%   Search the loaded puzzle.  Mode is first(N) (stop after N solutions),
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

run(Strategy, Mode, TimeLimit, result(Status, Solutions, Count, Nodes, Backtracks)) :-
    reset_counters,
    retractall(found(_)),
    board(Board),
    mode_limit(Mode, Max, Keep),
    Collect = collect(Strategy, Board, Max, Keep),
    (   catch(within(TimeLimit, Collect), time_limit_exceeded, fail)
    ->  TimedOut = false
    ;   TimedOut = true
    ),
    flag(cw_solutions, Count, Count),
    flag(cw_nodes, Nodes, Nodes),
    flag(cw_backtracks, Backtracks, Backtracks),
    findall(S, found(S), Solutions),
    retractall(found(_)),
    status(TimedOut, Count, Status).

mode_limit(first(N), N, true).
mode_limit(all, none, true).
mode_limit(count, none, false).

within(none, Goal) :- !, call(Goal).
within(Seconds, Goal) :- call_with_time_limit(Seconds, Goal).

status(true, _, timeout) :- !.
status(false, 0, unsolvable) :- !.
status(false, _, solved).

%   collect(+Strategy, +Board, +Max, +Keep) succeeds once, after Max
%   solutions or when the search space is exhausted.
collect(Strategy, Board, Max, Keep) :-
    (   search(Strategy, Board),
        flag(cw_solutions, N0, N0+1),
        keep_solution(Keep, Board),
        Max \== none,
        N0 + 1 >= Max
    ->  true
    ;   true
    ).

keep_solution(false, _).
keep_solution(true, Board) :-
    append(Board, Chars),
    string_chars(String, Chars),
    assertz(found(String)).

%!  board(-Board:list(list(var))) is det.
%
%   One variable per open cell, shared by the sites through it; Board holds
%   each site's variables in site order, predefined letters already bound.

board(Board) :-
    findall(I-Cells, site(I, Cells), Sites),
    pairs_values(Sites, CellLists),
    append(CellLists, AllCells),
    sort(AllCells, Cells),
    maplist(cell_var, Cells, CellVars),
    list_to_assoc(CellVars, Assoc),
    maplist(site_vars(Assoc), CellLists, Board),
    bind_givens(Assoc).

cell_var(Cell, Cell-_).

%   No yall lambda here: it would copy Assoc and with it the cell variables.
site_vars(Assoc, Cells, Vars) :-
    maplist(cell_lookup(Assoc), Cells, Vars).

cell_lookup(Assoc, Cell, Var) :-
    get_assoc(Cell, Assoc, Var).

bind_givens(Assoc) :-
    findall(R-C-Char, given(R, C, Char), Givens),
    maplist(bind_given(Assoc), Givens).

bind_given(Assoc, R-C-Char) :-
    (   get_assoc(R-C, Assoc, Var)
    ->  Var = Char
    ;   true
    ).

%!  search(+Strategy, +Board) is nondet.
%
%   Bind every site of Board to a listed word, each word used exactly once.

search(given, Board) :-
    findall(W, word(_, W), Words),
    numbered_sites(Board, Sites),
    place_in_order(Words, Sites).
search(sorted, Board) :-
    findall(W, word(_, W), Words0),
    length_frequency_order(Words0, Words),
    length_frequency_order(Board, Board1),
    numbered_sites(Board1, Sites),
    place_in_order(Words, Sites).
search(mrv, Board) :-
    distinct_words(Words, Counts),
    open_sites(Board, Words, Counts, Open),
    mrv(Open, Words, Counts).

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
    ->  flag(cw_nodes, N, N+1)
    ;   flag(cw_backtracks, B, B+1),
        fail
    ).

%   distinct_words(-Words, -Counts): Words is words(W1, ...) holding each
%   distinct word once, in order of first listing; Counts is counts(C1, ...)
%   with how many copies of each are still to be placed.  Counts is updated
%   with setarg/3, which is undone on backtracking.
distinct_words(Words, Counts) :-
    findall(W-I, word(I, W), Pairs),
    msort(Pairs, Sorted),
    group_pairs_by_key(Sorted, Groups),
    maplist(first_and_count, Groups, Keyed),
    keysort(Keyed, ByFirst),
    pairs_values(ByFirst, WordCounts),
    pairs_keys_values(WordCounts, Distinct, Cs),
    Words =.. [words|Distinct],
    Counts =.. [counts|Cs].

%   Indices come sorted, so the first is where the word was first listed.
first_and_count(W-[First|More], First-(W-N)) :-
    length([First|More], N).

%   open_sites(+Board, +Words, +Counts, -Open): one o(Key, Vars, Domain,
%   Neighbours) per site.  Domain lists the indices (into Words) of the
%   words that fit, in order; Key = k(DomainSize, NegCrossings, Index)
%   orders sites for mrv: smallest domain, then most crossings, then index.
open_sites(Board, Words, Counts, Open) :-
    findall(I-Cells, site(I, Cells), Sites),
    site_links(Sites, Links),
    ids_by_length(Words, ByLength),
    maplist(open_site(ByLength, Words, Counts), Links, Board, Open).

open_site(ByLength, Words, Counts, I-Linked, Vars,
          o(k(Size, Neg, I), Vars, Domain, Neighbours)) :-
    length(Linked, Crossings),
    Neg is -Crossings,
    sort(Linked, Neighbours),
    length(Vars, L),
    (   memberchk(L-Ids, ByLength)
    ->  initial_domain(Vars, Ids, Words, Counts, Domain)
    ;   Domain = []
    ),
    length(Domain, Size).

%   Every word still has a copy to place here, so a site with no letter yet
%   takes every word of its length; that shortcut matters for dictionaries.
initial_domain(Vars, Ids, Words, Counts, Domain) :-
    (   maplist(var, Vars)
    ->  Domain = Ids
    ;   include(fits(Vars, Words, Counts), Ids, Domain)
    ).

%   ids_by_length(+Words, -ByLength): Length-Ids pairs, Ids ascending.
ids_by_length(Words, ByLength) :-
    Words =.. [_|List],
    foldl(id_length, List, Keyed, 1, _),
    msort(Keyed, Sorted),
    group_pairs_by_key(Sorted, ByLength).

id_length(Chars, L-Id, Id, Next) :-
    length(Chars, L),
    Next is Id + 1.

%   site_links(+Sites, -Links): for every site in order, I-Linked where
%   Linked holds the index of the other site at each of its crossings.
site_links(Sites, Links) :-
    findall(Cell-I, ( member(I-Cells, Sites), member(Cell, Cells) ), CellSites),
    msort(CellSites, Sorted),
    group_pairs_by_key(Sorted, Shared),
    findall(I-J, ( member(_-Is, Shared), member(I, Is), member(J, Is), I \== J ), Pairs),
    msort(Pairs, SortedPairs),
    group_pairs_by_key(SortedPairs, Grouped),
    pairs_keys(Sites, Indices),
    maplist(links_of(Grouped), Indices, Links).

links_of(Grouped, I, I-Linked) :-
    (   memberchk(I-Linked, Grouped)
    ->  true
    ;   Linked = []
    ).

fits(Vars, Words, Counts, Id) :-
    arg(Id, Counts, C),
    C > 0,
    arg(Id, Words, Chars),
    \+ Vars \= Chars.

mrv([], _, _) :- !.
mrv([First|Others], Words, Counts) :-
    foldl(better_site, Others, First, Best),
    mrv(Best, [First|Others], Words, Counts).

%   mrv(+Best, +Open, +Words, +Counts): fill Best, the chosen open site,
%   with each word of its domain in turn, then go on with the rest.
mrv(o(k(_, _, I), Vars, Domain, Neighbours), Open, Words, Counts) :-
    (   Domain == []
    ->  flag(cw_backtracks, B, B+1),
        fail
    ;   true
    ),
    member(Id, Domain),
    arg(Id, Words, Chars),
    Vars = Chars,
    flag(cw_nodes, N, N+1),
    arg(Id, Counts, C0),
    C is C0 - 1,
    setarg(Id, Counts, C),
    next_open(Open, I, Neighbours, Id, C, Words, Counts, Open1, none, Best1),
    (   Open1 == []
    ->  true
    ;   mrv(Best1, Open1, Words, Counts)
    ).

%   next_open(+Open, +Filled, +Neighbours, +Id, +Left, +Words, +Counts,
%             -Open1, +Best0, -Best): one pass that drops the filled
%   site, updates the others and picks the next best.
next_open([], _, _, _, _, _, _, [], Best, Best).
next_open([S0|Ss], I, Ns, Id, Left, Words, Counts, Open, Best0, Best) :-
    (   S0 = o(k(_, _, I), _, _, _)
    ->  next_open(Ss, I, Ns, Id, Left, Words, Counts, Open, Best0, Best)
    ;   update_site(Ns, Id, Left, Words, Counts, S0, S),
        Open = [S|Open1],
        better_site(S, Best0, Best1),
        next_open(Ss, I, Ns, Id, Left, Words, Counts, Open1, Best1, Best)
    ).

%   better_site(+Site, +Best0, -Best): Site if its key is smaller.
better_site(S, none, S) :- !.
better_site(S, B0, B) :-
    arg(1, S, K),
    arg(1, B0, K0),
    (   K @< K0
    ->  B = S
    ;   B = B0
    ).

%   update_site(+Neighbours, +Id, +Left, +Words, +Counts, +Site0, -Site):
%   a neighbour of the filled site has new letters, so its domain is
%   filtered again; elsewhere only the word just used can drop out.
update_site(Neighbours, Id, Left, Words, Counts, Site0, Site) :-
    Site0 = o(k(_, Neg, J), V, D0, Ns),
    (   memberchk(J, Neighbours)
    ->  include(fits(V, Words, Counts), D0, D)
    ;   Left =:= 0,
        memberchk(Id, D0)
    ->  exclude(==(Id), D0, D)
    ;   D = D0
    ),
    (   D == D0
    ->  Site = Site0
    ;   length(D, Size),
        Site = o(k(Size, Neg, J), V, D, Ns)
    ).
