/*  wdeg: the fast strategy for filling a grid from a dictionary.

    The strategy is specified in docs/search.md#wdeg; this module mirrors
    pybridge/search/wdeg.py step for step, so both engines make the same
    choices in the same order and count the same nodes and dead ends.
    What follows in the comments is how, not what.

    A site's domain is a bitset, a (big) integer over the dictionary's words
    of its length: bit K is the word K of that length, in the order of the
    Python tables.  Per length the dictionary keeps the words (end to end in
    one string) and, for each position, the sorted list of Code-Mask pairs,
    Mask the words with letter Code there.

    The dictionary arrives once per process (load_dictionary_text/3, built by
    pybridge.bridge from pybridge.bitsets.tables) and lives in a global
    variable, so a search reads it without copying.  Each of the two
    searches that take turns (docs/search.md#two-streams) has its own
    state, one term: the domains, the open flags, the copies left, the
    supports and the words the choices put change with backtrackable
    setarg/3 and so come back for free on backtracking; what the Python
    engine never undoes (the crossing weights, the LCG state, the node
    limit, the words placed in the current run and the phase) changes with
    nb_setarg/3.  The sites' crossings and their ids are layout.pl's; the
    counters (which the two searches share) and the LCG are kernel.pl's.

    No I/O here.
*/

:- module(wdeg,
          [ load_dictionary/2,          % +Key, +Tables
            load_dictionary_text/2,     % +Key, +Text
            load_dictionary_text/3,     % +Key, +Text, +Masks
            dictionary_loaded/1,        % +Key
            dictionary/3,               % +Key, -Tables, -Copies (valued.pl reads it too)
            members/3,                  % +Domain, -Ids, ?Tail
            wdeg_search/5,              % +Key, +Seed, +Board, +Arcs, +Crossings
            wdeg_search/6               % +Key, +ScoreKey, +Seed, +Board, +Arcs, +Crossings
          ]).

:- use_module(library(apply)).
:- use_module(library(error)).
:- use_module(library(lists)).
:- use_module(library(pairs)).
:- use_module(kernel,
              [ count_node/0,
                count_backtrack/0,
                scores/2,
                count_restart/1,
                lcg_state/2,
                lcg_halves/3,
                random_below/4
              ]).

:- set_prolog_flag(optimise, true).     % arithmetic compiled inline: the hot loops are arithmetic

first_limit_extra(10).
streams(2).             % searches taking turns (docs/search.md#two-streams)
weight_draw(3).         % a seed past the default's draws weights from 1 to this
kept_dictionaries(4).   % dictionaries kept loaded, most recently loaded first
mask_piece_bits(1024).  % bits per piece of a long mask (bridge.MASK_CHUNK)

                 /*******************************
                 *          DICTIONARIES        *
                 *******************************/

%!  load_dictionary(+Key:integer, +Tables:list(compound)) is det.
%
%   Keep the dictionary Tables under Key, replacing the least recently
%   loaded one when kept_dictionaries/1 are loaded already.  Each table is
%   t(Length, Words, Copies, Positions): Words the distinct words of that
%   length (bit K of a domain is the K-th, from 0), as a list of code
%   lists or strings or as one string of them all end to end (as they are
%   kept: one string is far cheaper to load and to keep than many), Copies
%   how many times each is listed, Positions per position the sorted
%   Code-Mask pairs.  A mask is an integer or a list of the pieces of one,
%   most significant first, each of mask_piece_bits/1 bits (converting text
%   to a number takes time quadratic in its digits).
%
%   ?- load_dictionary(7, [t(2, [`ab`, `ac`], [1, 1],
%                            [[0'a-3], [0'b-1, 0'c-2]])]).

load_dictionary(Key, Tables) :-
    must_be(integer, Key),
    foldl(longest, Tables, 1, Max),  % tables(none) for no word: a compound still
    length(TableArgs, Max),
    length(CopyArgs, Max),
    maplist(=(none), TableArgs),
    maplist(=(none), CopyArgs),
    TablesTerm =.. [tables|TableArgs],
    CopiesTerm =.. [copies|CopyArgs],
    maplist(store_table(TablesTerm, CopiesTerm), Tables),
    remember(Key, dictionary(TablesTerm, CopiesTerm)).

longest(t(L, _, _, _), Max0, Max) :-
    Max is max(Max0, L).

store_table(TablesTerm, CopiesTerm, t(L, Words, Copies, Positions)) :-
    end_to_end(Words, All),
    length(Copies, N),
    string_length(All, Chars),
    (   Chars =:= L * N
    ->  true
    ;   domain_error(words_of_length(L), Words)
    ),
    Full is (1 << N) - 1,
    maplist(position_masks, Positions, Masks),
    MasksTerm =.. [masks|Masks],
    setarg(L, TablesTerm, table(words(L, N, All), Full, MasksTerm)),
    CountsTerm =.. [left|Copies],
    setarg(L, CopiesTerm, CountsTerm).

end_to_end(Words, All) :-
    (   string(Words)
    ->  All = Words
    ;   maplist(codes_string, Words, Strings),
        atomics_to_string(Strings, All)
    ).

position_masks(Pairs0, Pairs) :-
    maplist(pair_mask, Pairs0, Pairs).

pair_mask(Code-Mask0, Code-Mask) :-
    (   integer(Mask0)
    ->  Mask = Mask0
    ;   foldl(shift_in, Mask0, 0, Mask)
    ).

shift_in(Piece, Mask0, Mask) :-
    mask_piece_bits(Bits),
    Mask is (Mask0 << Bits) \/ Piece.

codes_string(Codes, String) :-
    string_codes(String, Codes).

%   word(+Words, +K, -Word): the word K (from 0) of a words(Length, Count,
%   All) term, All the words end to end.  (sub_string/5 takes constant time
%   here; string_code/3 on All would take time linear in its length.)

word(words(L, _, All), K, Word) :-
    Start is K * L,
    sub_string(All, Start, L, _, Word).

%!  load_dictionary_text(+Key:integer, +Text:string) is det.
%!  load_dictionary_text(+Key:integer, +Text:string, +Masks:list(integer)) is det.
%
%   load_dictionary/2 from one string, as pybridge.bridge sends it: string
%   functions split it, so nothing in it is read as a term.  Per table, a
%   line "Length Count", a line of the Count words end to end, a line of the
%   copies (empty when every word is listed once) and a line per position
%   of space-separated pairs.  A pair is Code=Pieces, Pieces the
%   comma-separated hex pieces of the mask, most significant first; or
%   Code alone, its mask then the next of Masks (integers the bridge puts
%   whole, in the order of the pairs).
%
%   ?- load_dictionary_text(7, "2 2\nabac\n\n97=0x3\n98=0x1 99=0x2\n").
%   ?- load_dictionary_text(7, "2 2\nabac\n\n97\n98 99\n", [3, 1, 2]).

load_dictionary_text(Key, Text) :-
    load_dictionary_text(Key, Text, []).

load_dictionary_text(Key, Text, Masks) :-
    must_be(string, Text),
    must_be(list(integer), Masks),
    split_string(Text, "\n", "", Lines),
    text_tables(Lines, Tables, Masks, []),
    load_dictionary(Key, Tables).

text_tables([""], [], Masks, Masks) :-  % the text ends with a line break
    !.
text_tables([Header, Words, CopiesLine|Lines1], [t(L, Words, Copies, Positions)|Tables],
            Masks0, Masks) :-
    split_string(Header, " ", "", [LengthText, CountText]),
    number_string(L, LengthText),
    number_string(N, CountText),
    text_copies(CopiesLine, N, Copies),
    length(PositionLines, L),
    append(PositionLines, Lines2, Lines1),
    foldl(text_position, PositionLines, Positions, Masks0, Masks1),
    text_tables(Lines2, Tables, Masks1, Masks).

text_copies("", N, Copies) :-
    !,
    length(Copies, N),
    maplist(=(1), Copies).
text_copies(Line, _, Copies) :-
    split_string(Line, " ", "", Texts),
    maplist(number_string, Copies, Texts).

text_position(Line, Pairs, Masks0, Masks) :-
    split_string(Line, " ", "", PairTexts),
    foldl(text_pair, PairTexts, Pairs, Masks0, Masks).

text_pair(Text, Code-Mask, Masks0, Masks) :-
    split_string(Text, "=", "", [CodeText|Rest]),
    number_string(Code, CodeText),
    (   Rest == []
    ->  Masks0 = [Mask|Masks]
    ;   Rest = [PiecesText],
        split_string(PiecesText, ",", "", PieceTexts),
        maplist(number_string, Mask, PieceTexts),
        Masks = Masks0
    ).

%!  dictionary_loaded(+Key:integer) is semidet.
%
%   True when a dictionary is kept under Key (in this thread: global
%   variables are per thread).

dictionary_loaded(Key) :-
    dictionary_name(Key, Name),
    nb_current(Name, _).

%!  dictionary(+Key:integer, -Tables, -Copies) is det.
%
%   The dictionary kept under Key, as load_dictionary/2 keeps it: per
%   length (an argument) table(words(L, N, All), Full, Masks) or none, and
%   the copies of each word.

dictionary(Key, Tables, Copies) :-
    dictionary_name(Key, Name),
    nb_getval(Name, dictionary(Tables, Copies)).

dictionary_name(Key, Name) :-
    format(atom(Name), 'wdeg_dictionary_~d', [Key]).

remember(Key, Dictionary) :-
    dictionary_name(Key, Name),
    nb_setval(Name, Dictionary),
    (   nb_current(wdeg_dictionaries, Keys0)
    ->  true
    ;   Keys0 = []
    ),
    delete(Keys0, Key, Others),
    kept_dictionaries(Kept),
    Keep is Kept - 1,
    length(Others, Count),
    (   Count > Keep
    ->  length(Recent, Keep),
        append(Recent, Dropped, Others),
        maplist(forget_dictionary, Dropped)
    ;   Recent = Others
    ),
    nb_setval(wdeg_dictionaries, [Key|Recent]).

forget_dictionary(Key) :-
    dictionary_name(Key, Name),
    nb_delete(Name).

                 /*******************************
                 *            SEARCH            *
                 *******************************/

%!  wdeg_search(+Key:integer, +Seed, +Board:list(list(var)),
%!              +Arcs:list(list(compound)), +Crossings:integer) is nondet.
%
%   Bind every site of Board to a word of the dictionary kept under Key,
%   once per fill; Board, Arcs and Crossings are layout:layout/5's (the
%   predefined letters are bound in Board already).  Seed is none or an
%   integer >= 0 for the LCG (none counts as 0); stream I (from 0) of the
%   streams/1 searches draws from Seed + I.
%
%   ?- load_dictionary_text(7, "2 2\nabac\n\n97=0x3\n98=0x1 99=0x2\n"),
%      Board = [[A, _], [A, _]],          % two sites crossing at their first cell
%      Arcs = [[x(0, 1, 0, 0)], [x(0, 0, 0, 0)]],
%      kernel:reset_counters,
%      findall(Board, wdeg_search(7, none, Board, Arcs, 1), Fills).
%   Fills = [[[a, c], [a, b]], [[a, b], [a, c]]].
%
%   wdeg_search/6 takes the key of the words' scores too (kernel:scores/2,
%   in the order of the dictionary's words): among words of equal
%   look-ahead, the higher-scored is tried first (docs/search.md#order-of-words).
%   They are reached through the backtrackable global wdeg_scores (none
%   without scores), which order/3 reads.

wdeg_search(Key, Seed, Board, Arcs, Crossings) :-
    b_setval(wdeg_scores, none),
    search(Key, Seed, Board, Arcs, Crossings).

wdeg_search(Key, ScoreKey, Seed, Board, Arcs, Crossings) :-
    scores(ScoreKey, Scores),
    b_setval(wdeg_scores, Scores),
    search(Key, Seed, Board, Arcs, Crossings).

search(Key, Seed, Board, Arcs, Crossings) :-
    dictionary_name(Key, Name),
    nb_getval(Name, dictionary(Tables, Copies)),
    (   Seed == none
    ->  First = 0
    ;   First = Seed
    ),
    state(Tables, Copies, First, Board, Arcs, Crossings, State),
    streams(Count),
    Last is First + Count - 1,
    numlist(First, Last, [_|Seeds]),
    maplist(sibling(State, Copies), Seeds, Siblings),
    solutions([State|Siblings], Words),
    maplist(word_vars, Words, Board).

word_vars(Word, Vars) :-
    string_chars(Word, Vars).

%   sibling(+State, +Copies, +Seed, -Sibling): a fresh state for the same
%   sites as State (before any search), drawing from Seed; it shares
%   State's fixed arguments.
sibling(State, Copies, Seed, Sibling) :-
    State = st(Dom0, _, _, Weights0, _, Links, Lengths, ByLength, Tables,
               _, _, _),
    duplicate_term(Dom0, Dom),
    functor(Weights0, _, Crossings),
    fresh(Dom, Crossings, fixed(Links, Lengths, ByLength, Tables), Copies,
          Seed, Sibling).

%   The state: st(Dom, Open, Left, Weights, Run, Links, Lengths, ByLength,
%   Tables, Sup, Phase, Learning).  Dom, Open, Left (per length, the copies left of
%   each word) and Sup (per site, the domain it was last revised from, or
%   none: see propagate/3) change with setarg/3; Weights and Run =
%   run(Limit, Placed, High, Low) with nb_setarg/3; Phase as phase/2 says;
%   Learning = learning(First, Refuted) (docs/search.md#nogoods): First
%   is the run's first choice, lvl(S, Candidates, K) while site S tries
%   word K of Candidates, and Refuted the S-K words that first choices
%   refuted, in the order learned; both change with setarg/3 (Refuted
%   between runs only).  The rest is fixed.  The LCG's 64-bit state is kept as two 32-bit
%   halves: nb_setarg/3 of an integer too big to be tagged copies it onto
%   the global stack and freezes the stack below it, so backtracking would
%   no longer free what the search allocated (kernel:lcg_halves/3).
%   Links holds per site its arcs (layout:layout/5's Arcs, in their
%   order) as joined_links/5 extends them.
state(Tables, Copies, Seed, Board, Arcs, Crossings, State) :-
    maplist(length, Board, LengthList),
    Lengths =.. [lengths|LengthList],
    maplist(joined_links(Tables, LengthList), LengthList, Arcs, LinkLists),
    Links =.. [links|LinkLists],
    maplist(initial_domain(Tables), Board, Domains),
    Dom =.. [dom|Domains],
    sites_by_length(LengthList, Tables, ByLength),
    fresh(Dom, Crossings, fixed(Links, Lengths, ByLength, Tables), Copies,
          Seed, State).

%   fresh(+Dom, +Crossings, +Fixed, +Copies, +Seed, -State): the state
%   with domains Dom and the fixed arguments before any search: every site
%   open and without support, every copy left, no phase yet, the LCG at
%   Seed and the weights as initial_weights/3 draws them.
fresh(Dom, Crossings, fixed(Links, Lengths, ByLength, Tables), Copies, Seed,
      State) :-
    State = st(Dom, Open, Left, Weights, Run, Links, Lengths, ByLength, Tables,
               Sup, Phase, Learning),
    functor(Dom, _, N),
    uniform(weights, Crossings, 1, Weights),
    uniform(open, N, true, Open),
    uniform(sup, N, none, Sup),
    phase(N, Phase),
    used_copies(Copies, ByLength, Left),
    run(Seed, Run),
    initial_weights(Seed, Run, Weights),
    Learning = learning(none, []).

%   initial_weights(+Seed, +Run, +Weights): with a seed of the default
%   search (below streams/1) every weight stays 1; another seed draws each
%   crossing's, in id order, from 1 to weight_draw/1, so that its search
%   differs from the first choice on (docs/search.md#weights).
initial_weights(Seed, _, _) :-
    streams(Count),
    Seed < Count,
    !.
initial_weights(_, Run, Weights) :-
    functor(Weights, _, N),
    weight_draw(Most),
    draw_weights(1, N, Most, Run, Weights).

draw_weights(X, N, Most, Run, Weights) :-
    (   X > N
    ->  true
    ;   draw_below(Run, Most, R),
        W is 1 + R,
        nb_setarg(X, Weights, W),
        X1 is X + 1,
        draw_weights(X1, N, Most, Run, Weights)
    ).

%   run(+Seed, -Run): no limit yet, no word placed, the LCG at Seed.
run(Seed, run(none, 0, High, Low)) :-
    lcg_state(Seed, Lcg),
    lcg_halves(Lcg, High, Low).

%   uniform(+Name, +N, +X, -Term): Name with N arguments, each X.
uniform(Name, N, X, Term) :-
    functor(Term, Name, N),
    set_args(N, Term, X).

%   phase(+N, -Phase): phase(Depth, Best, At, Deep, Prefer) for N sites
%   (docs/search.md#phase): At holds per site the word a choice put
%   there (-1: none) and Depth how many sites have one, both changed with
%   setarg/3;
%   Best is the most of them in this run so far, Deep the words of At then
%   and Prefer the words this run prefers, changed with nb_setarg/3 (small
%   integers only, so nothing is copied onto the global stack).
phase(N, phase(0, -1, At, Deep, Prefer)) :-
    uniform(at, N, -1, At),
    uniform(deep, N, -1, Deep),
    uniform(prefer, N, -1, Prefer).

%   initial_domain(+Tables, +Vars, -Domain): the words of the site's
%   length that have the predefined letters (the bound variables of the
%   site: nothing else is bound before the search).
initial_domain(Tables, Vars, Domain) :-
    length(Vars, L),
    (   table(Tables, L, table(_, Full, Masks))
    ->  foldl(given_letter(Masks), Vars, Full-1, Domain-_)
    ;   Domain = 0
    ).

given_letter(Masks, Var, D0-P, D-P1) :-
    P1 is P + 1,
    (   nonvar(Var)
    ->  char_code(Var, Code),
        arg(P, Masks, Pairs),
        (   memberchk(Code-Mask, Pairs)
        ->  D is D0 /\ Mask
        ;   D = 0
        )
    ;   D = D0
    ).

table(Tables, L, Table) :-
    functor(Tables, _, Max),
    L >= 1,
    L =< Max,
    arg(L, Tables, Table),
    Table \== none.

%   used_copies(+Copies, +ByLength, -Left): a copy of the copies of each
%   word for the lengths some site has (none for the others), to count
%   down as words are placed.
used_copies(Copies, ByLength, Left) :-
    Copies =.. [Name|Counts],
    ByLength =.. [_|Sites],
    maplist(used_count, Counts, Sites, LeftCounts),
    Left =.. [Name|LeftCounts].

used_count(Counts, Sites, Left) :-
    (   Sites == []
    ->  Left = none
    ;   duplicate_term(Counts, Left)
    ).

%   sites_by_length(+Lengths, +Tables, -ByLength): per length (an argument
%   of the arity of Tables) the sites of that length, ascending.
sites_by_length(Lengths, Tables, ByLength) :-
    functor(Tables, _, Max),
    length(Args, Max),
    ByLength =.. [by_length|Args],
    foldl(site_length_pair, Lengths, Pairs, 0, _),
    keysort(Pairs, Sorted),
    group_pairs_by_key(Sorted, Groups),
    maplist(by_length_arg(ByLength), Groups),
    maplist(empty_if_unbound, Args).

site_length_pair(L, L-S, S, S1) :-
    S1 is S + 1.

by_length_arg(ByLength, L-Sites) :-
    functor(ByLength, _, Max),
    (   L =< Max
    ->  arg(L, ByLength, Sites)
    ;   true
    ).

empty_if_unbound(X) :-
    (   var(X)
    ->  X = []
    ;   true
    ).

%   numlist_(+Low, +High, -List): Low, ..., High - 1 (none when High =<
%   Low).
numlist_(Low, High, List) :-
    High1 is High - 1,
    (   High1 < Low
    ->  List = []
    ;   numlist(Low, High1, List)
    ).

%   joined_links(+Tables, +Lengths, +L, +Arcs, -Links): each x(I, T, J, X)
%   of a site of length L (position I here is position J of site T,
%   crossing X) as l(I, T, J, X, Joined, There): There the
%   Code-Mask pairs of T at J; Joined what propagation reads, per letter of
%   There, in order of code: j(Code, Here, Mask, Residue), Here the words of
%   this site with that letter at I (0 when none has it).  Residue is a
%   word of Here, the last one found in the source domain, kept with
%   nb_setarg/3: while it stays in the domain the letter has support
%   without a big AND (AC-3 with residual supports; it only saves work,
%   never changes a result).  Without such a word it is the number of words
%   of this length, a bit no domain has.  A length without words has no
%   letters.
joined_links(Tables, Lengths, L, Arcs, Links) :-
    maplist(joined_link(Tables, Lengths, L), Arcs, Links).

joined_link(Tables, Lengths, L, x(I, T, J, X), l(I, T, J, X, Joined, There)) :-
    nth0(T, Lengths, LT),
    position_pairs(Tables, L, I, Here),
    position_pairs(Tables, LT, J, There),
    (   table(Tables, L, table(words(_, None, _), _, _))
    ->  true
    ;   None = 0
    ),
    join_pairs(There, Here, None, Joined).

position_pairs(Tables, L, P, Pairs) :-
    (   table(Tables, L, table(_, _, Masks))
    ->  P1 is P + 1,
        arg(P1, Masks, Pairs)
    ;   Pairs = []
    ).

%   join_pairs(+There, +Here, +None, -Joined): both sorted by code, so a
%   merge.
join_pairs([], _, _, []).
join_pairs([C-M|There], Here0, None, [j(C, H, M, Residue)|Joined]) :-
    drop_below(Here0, C, Here),
    (   Here = [C-H|_]
    ->  Residue is lsb(H)
    ;   H = 0,
        Residue = None
    ),
    join_pairs(There, Here, None, Joined).

drop_below([], _, []).
drop_below([C0-H|Here0], C, Here) :-
    (   C0 < C
    ->  drop_below(Here0, C, Here)
    ;   Here = [C0-H|Here0]
    ).

%   solutions(+States, -Words): the streams' searches take turns in rounds
%   of one run each until one finds a fill; that one then goes on alone
%   (docs/search.md#two-streams).  Each search propagates its root before
%   its first run, and its runs have a growing node limit
%   (docs/search.md#restarts).
solutions(States, Words) :-
    States = [st(_, _, _, _, _, _, Lengths, _, _, _, _, _)|_],
    functor(Lengths, _, N),
    numlist_(0, N, Sites),
    first_limit_extra(Extra),
    Limit is 2 * N + Extra,
    length(States, Count),
    numlist_(0, Count, Indices),
    maplist(first_run(Limit), Indices, States, Streams),
    turns(Streams, [], Sites, State),
    words(State, Words).

first_run(Limit, Index, State, s(Index, 1, Limit, State)).

%   turns(+Round, +Restarted, +Sites, -State): the streams of Round take
%   their next run, in turn.  A stream that reaches its limit joins
%   Restarted, keyed by the depth of its run's deepest point and its index,
%   and the next round takes them deepest first (ties: the first stream
%   first).  A run that ends within its limit ends the turns: State is its
%   search, which succeeds once per fill (a root whose propagation fails,
%   or a run with no fill, fails them all).
turns([], Restarted, Sites, Found) :-
    keysort(Restarted, Sorted),
    pairs_values(Sorted, Round),
    turns(Round, [], Sites, Found).
turns([s(Index, Number, Limit, State)|Round], Restarted, Sites, Found) :-
    (   Number =:= 1
    ->  propagate(Sites, State)
    ;   true
    ),
    arg(5, State, Run),
    nb_setarg(1, Run, Limit),
    nb_setarg(2, Run, 0),
    forbid_at_root(State),
    arg(11, State, Phase),
    start_phase(Number, Phase),
    catch(fill(Sites, State), wdeg_restart(Failed), Reached = true),
    (   Reached == true
    ->  arg(12, State, Learning),
        arg(2, Learning, Refuted0),
        append(Refuted0, Failed, Refuted),
        setarg(2, Learning, Refuted),
        arg(2, Phase, Depth),
        count_restart(Depth),
        Deeper is -Depth,
        Number1 is Number + 1,
        Limit1 is Limit * 3 // 2,
        turns(Round, [k(Deeper, Index)-s(Index, Number1, Limit1, State)|Restarted],
              Sites, Found)
    ;   nb_setarg(1, Run, none),
        Found = State
    ).

%   forbid_at_root(+State): the refuted words leave their sites' root
%   domains (with setarg/3 outside any run, so for this run and the next
%   ones); fails if the root then fails.
forbid_at_root(State) :-
    State = st(Dom, _, _, _, _, _, _, _, _, _, _, learning(_, Refuted)),
    forbid(Refuted, Dom, [], Back),
    (   Back == []
    ->  true
    ;   reverse(Back, Changed),
        propagate(Changed, State)
    ).

%   forbid(+Choices, +Dom, +Back0, -Back): take each word W of the Choices
%   T-W out of D(T), if it is there (a domain emptied is a dead end); a
%   site changed joins Back0 (the changed sites, last first) unless it is
%   there.
forbid([], _, Back, Back).
forbid([T-W|Choices], Dom, Back0, Back) :-
    T1 is T + 1,
    arg(T1, Dom, D),
    (   getbit(D, W) =:= 1
    ->  D1 is D xor (1 << W),
        (   D1 =:= 0
        ->  dead_end,
            fail
        ;   setarg(T1, Dom, D1),
            (   memberchk(T, Back0)
            ->  Back1 = Back0
            ;   Back1 = [T|Back0]
            )
        )
    ;   Back1 = Back0
    ),
    forbid(Choices, Dom, Back1, Back).

%   start_phase(+Number, +Phase): run Number prefers the words of the last
%   run's deepest point when Number is odd, none when it is even; its own
%   deepest point is not reached yet.
start_phase(Number, Phase) :-
    Phase = phase(_, _, _, Deep, Prefer),
    nb_setarg(2, Phase, -1),
    functor(Deep, _, N),
    (   Number mod 2 =:= 1
    ->  copy_args(N, Deep, Prefer)
    ;   set_args(N, Prefer, -1)
    ),
    set_args(N, Deep, -1).

words(st(Dom, _, _, _, _, _, Lengths, _, Tables, _, _, _), Words) :-
    functor(Dom, _, N),
    numlist_(0, N, Sites),
    maplist(site_word(Dom, Lengths, Tables), Sites, Words).

site_word(Dom, Lengths, Tables, S, Word) :-
    S1 is S + 1,
    arg(S1, Dom, D),
    K is msb(D),
    word_of(S1, K, Lengths, Tables, Word).

%   fill(+Region, +State): fill the open sites of Region; succeeds once per
%   fill of them.
fill(Region, State) :-
    arg(2, State, Open),
    include(is_open(Open), Region, Left),
    (   Left == []
    ->  true
    ;   parts(Left, State, Parts),
        (   Parts = [_]
        ->  branch(Left, State)
        ;   arg(1, State, Dom),
            Dom =.. [_|Domains],
            AtSplit =.. [at_split|Domains],
            chain(Parts, AtSplit, [], State)
        )
    ).

is_open(Open, S) :-
    S1 is S + 1,
    arg(S1, Open, true).

%   branch(+Region, +State): choose a site and try its words in turn; the
%   run's first choice (no site holds a chosen word yet) is kept while it
%   tries each.
branch(Region, State) :-
    choose(Region, State, S),
    order(S, State, Candidates),
    State = st(_, _, _, _, _, _, _, _, _, _, phase(Depth, _, _, _, _), Learning),
    member(K, Candidates),
    (   Depth =:= 0
    ->  setarg(1, Learning, lvl(S, Candidates, K))
    ;   true
    ),
    node(State),
    place(S, K, State),
    note_depth(S, K, State),
    fill(Region, State).

%   note_depth(+Site, +K, +State): word K is in Site, put there by a choice;
%   keep the words at the run's deepest point so far
%   (docs/search.md#phase).
note_depth(S, K, State) :-
    arg(11, State, Phase),
    Phase = phase(Depth0, Best, At, Deep, _),
    S1 is S + 1,
    setarg(S1, At, K),
    Depth is Depth0 + 1,
    setarg(1, Phase, Depth),
    (   Depth > Best
    ->  nb_setarg(2, Phase, Depth),
        functor(At, _, N),
        copy_args(N, At, Deep)
    ;   true
    ).

%   copy_args(+N, +From, +To): arguments 1..N of From into To (small
%   integers, with nb_setarg/3).
copy_args(N, From, To) :-
    (   N =:= 0
    ->  true
    ;   arg(N, From, X),
        nb_setarg(N, To, X),
        N1 is N - 1,
        copy_args(N1, From, To)
    ).

%   set_args(+N, +Term, +X): arguments 1..N of Term become X (an atom or
%   small integer, with nb_setarg/3).
set_args(N, Term, X) :-
    (   N =:= 0
    ->  true
    ;   nb_setarg(N, Term, X),
        N1 is N - 1,
        set_args(N1, Term, X)
    ).

%   node(+State): count a node; past the run's limit, restart.
node(State) :-
    count_node,
    arg(5, State, Run),
    arg(2, Run, Placed0),
    Placed is Placed0 + 1,
    nb_setarg(2, Run, Placed),
    arg(1, Run, Limit),
    (   Limit \== none,
        Placed > Limit
    ->  arg(12, State, learning(lvl(S, Candidates, K), _)),
        refuted(Candidates, S, K, Failed),
        throw(wdeg_restart(Failed))
    ;   true
    ).

%   refuted(+Candidates, +S, +K, -Failed): S-W for each word W of
%   Candidates before K: the run's first choice tried them all, and they
%   failed.
refuted([W|Ws], S, K, Failed) :-
    (   W =:= K
    ->  Failed = []
    ;   Failed = [S-W|Failed1],
        refuted(Ws, S, K, Failed1)
    ).

dead_end :-
    count_backtrack.

%   chain(+Parts, +AtSplit, +Done, +State): fill the parts one after the
%   other; Done: the sites filled since the split, in earlier parts.  When a
%   later part fails just after an earlier part was filled, it is tried
%   alone once from the domains at the split; if that fails too, stop.
chain([Head], _, _, State) :-
    !,
    fill(Head, State).
chain([Head|Rest], AtSplit, Done, State) :-
    Tried = tried(false),
    append(Done, Head, Done1),
    fill(Head, State),
    Filled = filled(false),
    (   chain(Rest, AtSplit, Done1, State),
        nb_setarg(1, Filled, true)
    ;   arg(1, Filled, false),
        arg(1, Tried, false),
        nb_setarg(1, Tried, true),
        \+ fills_alone(Rest, AtSplit, Done1, State),
        !,
        fail
    ).

%   fills_alone(+Parts, +AtSplit, +Done, +State): Parts can be filled from
%   their domains at the split, with the copies of the words Done took given
%   back, as if no other site were open (a word used up in Parts must not
%   fail the probe by emptying a site elsewhere).  Nodes, weights and draws
%   count; all else is undone.
fills_alone(Parts, AtSplit, Done, State) :-
    \+ \+ ( State = st(Dom, Open, Left, _, _, _, Lengths, _, _, Sup, _, _),
            append(Parts, Sites),
            close_others(Open, Sites),
            maplist(reset_domain(Dom, Sup, AtSplit), Sites),
            maplist(give_back(Dom, Left, Lengths), Done),
            fill(Sites, State)
          ).

%   close_others(+Open, +Sites): every open site not in Sites is closed
%   (with setarg/3, so backtracking opens it again).
close_others(Open, Sites) :-
    functor(Open, _, N),
    close_from(1, N, Open, Sites).

close_from(I, N, _, _) :-
    I > N,
    !.
close_from(I, N, Open, Sites) :-
    (   arg(I, Open, true),
        S is I - 1,
        \+ memberchk(S, Sites)
    ->  setarg(I, Open, false)
    ;   true
    ),
    I1 is I + 1,
    close_from(I1, N, Open, Sites).

%   A site reset to a larger domain has no support: its next revision is a
%   full one.
reset_domain(Dom, Sup, AtSplit, S) :-
    S1 is S + 1,
    arg(S1, AtSplit, D),
    setarg(S1, Dom, D),
    setarg(S1, Sup, none).

give_back(Dom, Left, Lengths, S) :-
    S1 is S + 1,
    arg(S1, Dom, D),
    arg(S1, Lengths, L),
    arg(L, Left, Counts),
    K is msb(D) + 1,
    arg(K, Counts, C0),
    C is C0 + 1,
    setarg(K, Counts, C).

%   parts(+Left, +State, -Parts): the connected parts of the open sites
%   Left, smallest first, ties to the lowest index; each part ascending.
parts(Left, State, Parts) :-
    State = st(Dom, Open, _, _, _, Links, _, _, _, _, _, _),
    functor(Dom, _, N),
    functor(Seen, seen, N),
    foldl(part_from(Links, Open, Seen), Left, [], Keyed),
    keysort(Keyed, Sorted),
    pairs_values(Sorted, Parts).

part_from(Links, Open, Seen, Start, Keyed0, Keyed) :-
    S1 is Start + 1,
    arg(S1, Seen, Mark),
    (   nonvar(Mark)
    ->  Keyed = Keyed0
    ;   Mark = seen,
        reach([Start], Links, Open, Seen, [Start], Part0),
        msort(Part0, Part),
        Part = [Lowest|_],
        length(Part, Size),
        Keyed = [(Size-Lowest)-Part|Keyed0]
    ).

%   reach(+Stack, +Links, +Open, !Seen, +Part0, -Part)
reach([], _, _, _, Part, Part).
reach([S|Stack], Links, Open, Seen, Part0, Part) :-
    S1 is S + 1,
    arg(S1, Links, SiteLinks),
    foldl(reach_link(Open, Seen), SiteLinks, Stack-Part0, Stack1-Part1),
    reach(Stack1, Links, Open, Seen, Part1, Part).

reach_link(Open, Seen, l(_, T, _, _, _, _), Stack0-Part0, Stack-Part) :-
    T1 is T + 1,
    arg(T1, Seen, Mark),
    (   var(Mark),
        arg(T1, Open, true)
    ->  Mark = seen,
        Stack = [T|Stack0],
        Part = [T|Part0]
    ;   Stack = Stack0,
        Part = Part0
    ).

                 /*******************************
                 *            CHOICES           *
                 *******************************/

%   choose(+Region, +State, -Site): the site of smallest |D| / wdeg, ties to
%   the first in Region.
choose([S|Ss], State, Best) :-
    site_measure(State, S, Size, Weight),
    choose(Ss, State, S, Size, Weight, Best).

choose([], _, Best, _, _, Best).
choose([S|Ss], State, Best0, Size0, Weight0, Best) :-
    site_measure(State, S, Size, Weight),
    (   Size * Weight0 < Size0 * Weight
    ->  choose(Ss, State, S, Size, Weight, Best)
    ;   choose(Ss, State, Best0, Size0, Weight0, Best)
    ).

site_measure(st(Dom, Open, _, Weights, _, Links, _, _, _, _, _, _), S, Size, Weight) :-
    S1 is S + 1,
    arg(S1, Dom, D),
    Size is popcount(D),
    arg(S1, Links, SiteLinks),
    open_weight(SiteLinks, Open, Weights, 0, Weight).

open_weight([], _, _, W, W).
open_weight([l(_, T, _, X, _, _)|Links], Open, Weights, W0, W) :-
    T1 is T + 1,
    (   arg(T1, Open, true)
    ->  X1 is X + 1,
        arg(X1, Weights, Wx),
        W1 is W0 + Wx
    ;   W1 = W0
    ),
    open_weight(Links, Open, Weights, W1, W).

%   order(+Site, +State, -Candidates): the words of D(Site) to try, in turn:
%   by index, rotated at a random one, sorted by their look-ahead product
%   (most first, stable); then the word the run prefers there, if D(Site)
%   has it, goes first.
order(S, State, Candidates) :-
    State = st(Dom, Open, _, _, Run, Links, Lengths, _, Tables, _, Phase, _),
    S1 is S + 1,
    arg(S1, Dom, D),
    Count is popcount(D),
    members(D, Members, End),
    (   Count > 1
    ->  draw_below(Run, Count, R),
        rotation(R, Members, End, Rotated)
    ;   End = [],
        Rotated = Members
    ),
    arg(S1, Links, SiteLinks),
    looks(SiteLinks, Open, Dom, Lengths, Tables, Looks),
    b_getval(wdeg_scores, Scores),
    (   ( Count =< 1 ; Looks == [], Scores == none )
    ->  Sorted = Rotated
    ;   arg(S1, Lengths, L),
        arg(L, Tables, table(Words, _, _)),
        score(Rotated, Words, Looks, Keyed0),
        tie_break(Scores, L, Keyed0, Keyed),
        keysort(Keyed, SortedKeyed),
        pairs_values(SortedKeyed, Sorted)
    ),
    arg(5, Phase, Prefer),
    arg(S1, Prefer, K),
    preferred(K, D, Sorted, Candidates).

%   preferred(+K, +D, +Words, -Candidates): Words with K first, if D has it.
preferred(K, D, Words, Candidates) :-
    (   K >= 0,
        Words = [First|_],
        First =\= K,
        getbit(D, K) =:= 1
    ->  selectchk(K, Words, Others),
        Candidates = [K|Others]
    ;   Candidates = Words
    ).

%   draw_below(+Run, +Bound, -Value): the LCG's next draw mod Bound
%   (kernel:random_below/4), its state kept in Run as two halves.
draw_below(Run, Bound, Value) :-
    arg(3, Run, High0),
    arg(4, Run, Low0),
    lcg_halves(State0, High0, Low0),
    random_below(Bound, State0, State, Value),
    lcg_halves(State, High, Low),
    nb_setarg(3, Run, High),
    nb_setarg(4, Run, Low).

%   rotation(+R, +List, -Tail, -Rotated): the open list List-Tail with its
%   first R elements moved to the end; only those R are copied.
rotation(R, List, Tail, Rotated) :-
    (   R =:= 0
    ->  Tail = [],
        Rotated = List
    ;   List = [X|Xs],
        Tail = [X|Tail1],
        R1 is R - 1,
        rotation(R1, Xs, Tail1, Rotated)
    ).

%   looks(+Links, +Open, +Dom, +Lengths, +Tables, -Looks): per crossing with
%   an open site T, look(I, Pairs, DT, Low, Memo): position I here, T's
%   Code-Mask pairs at the crossing, D(T), Low the least code of Pairs and
%   Memo the counts found so far, argument Code - Low + 1 for letter Code
%   (unbound until found) up to the greatest code of Pairs.
looks([], _, _, _, _, []).
looks([l(I, T, J, _, _, _)|Links], Open, Dom, Lengths, Tables, Looks) :-
    T1 is T + 1,
    (   arg(T1, Open, true)
    ->  arg(T1, Dom, DT),
        arg(T1, Lengths, LT),
        arg(LT, Tables, table(_, _, Masks)),
        J1 is J + 1,
        arg(J1, Masks, Pairs),
        I1 is I + 1,
        memo(Pairs, Low, Memo),
        Looks = [look(I1, Pairs, DT, Low, Memo)|Looks1]
    ;   Looks = Looks1
    ),
    looks(Links, Open, Dom, Lengths, Tables, Looks1).

memo([], 1, counts(0)).                 % no letter there: every count is 0
memo([Low-_|Pairs], Low, Memo) :-
    last([Low-_|Pairs], High-_),
    Size is High - Low + 1,
    functor(Memo, counts, Size).

%   score(+Ids, +Words, +Looks, -Keyed): NegProduct-Id per word, the product
%   over the looks of the words of D(T) that would keep the crossing letter.
%   The count of a letter is kept in the look's Memo once found (an
%   argument looked up, where a list would be searched); a letter outside
%   its codes has none.
%   tie_break(+Scores, +L, +Keyed0, -Keyed): with scores, each key
%   Neg-K becomes k(Neg, NegScore)-K, so that among equal look-aheads the
%   higher-scored word comes first (the sort stays stable).
tie_break(none, _, Keyed, Keyed) :-
    !.
tie_break(Scores, L, Keyed0, Keyed) :-
    arg(L, Scores, Term),
    maplist(scored_key(Term), Keyed0, Keyed).

scored_key(Term, Neg-K, k(Neg, NegScore)-K) :-
    K1 is K + 1,
    arg(K1, Term, Score),
    NegScore is -Score.

score([], _, _, []).
score([K|Ks], Words, Looks, [Neg-K|Keyed]) :-
    word(Words, K, Word),
    keeps(Looks, Word, 1, Product),
    Neg is -Product,
    score(Ks, Words, Looks, Keyed).

keeps([], _, P, P).
keeps([look(I, Pairs, DT, Low, Memo)|Looks], Word, P0, P) :-
    string_code(I, Word, Code),
    Arg is Code - Low + 1,
    (   Arg >= 1,
        arg(Arg, Memo, Count)
    ->  (   var(Count)
        ->  letter_count(Code, Pairs, DT, Count)
        ;   true
        )
    ;   Count = 0
    ),
    P1 is P0 * Count,
    keeps(Looks, Word, P1, P).

letter_count(Code, Pairs, DT, Count) :-
    (   memberchk(Code-Mask, Pairs)
    ->  Count is popcount(DT /\ Mask)
    ;   Count = 0
    ).

%!  members(+Domain:integer, -Ids:list(integer), ?Tail) is det.
%
%   The indices of the set bits of Domain, ascending, as the difference
%   list Ids-Tail.  Halves a big integer until the pieces are small, so
%   the work stays near linear (unless there are only a few bits to take
%   off one by one).

members(Domain, Ids, Tail) :-
    (   popcount(Domain) =< 16
    ->  peel_members(Domain, Ids, Tail)
    ;   members(Domain, 0, Ids, Tail)
    ).

%   A few words: take the lowest off, one at a time.
peel_members(0, Ids, Ids) :-
    !.
peel_members(D, [K|Ids], Tail) :-
    K is lsb(D),
    D1 is D /\ (D - 1),
    peel_members(D1, Ids, Tail).

members(0, _, Ids, Ids) :-
    !.
members(D, Offset, Ids, Tail) :-
    D < 1 << 60,
    !,
    small_members(D, Offset, Ids, Tail).
members(D, Offset, Ids, Tail) :-
    Half is (msb(D) + 1) // 2,
    Low is D /\ ((1 << Half) - 1),
    High is D >> Half,
    Offset1 is Offset + Half,
    members(Low, Offset, Ids, Middle),
    members(High, Offset1, Middle, Tail).

small_members(0, _, Ids, Ids) :-
    !.
small_members(D, Offset, [K|Ids], Tail) :-
    Low is lsb(D),
    K is Offset + Low,
    D1 is D /\ (D - 1),
    small_members(D1, Offset, Ids, Tail).

                 /*******************************
                 *    PLACING AND PROPAGATING   *
                 *******************************/

%   place(+Site, +K, +State): put word K in Site and propagate; fails on a
%   wipe-out.  When its last copy is placed the word leaves the other open
%   sites of its length.
place(S, K, State) :-
    State = st(Dom, Open, Left, _, _, _, Lengths, ByLength, _, _, _, _),
    S1 is S + 1,
    arg(S1, Lengths, L),
    setarg(S1, Open, false),
    arg(L, Left, Counts),
    K1 is K + 1,
    arg(K1, Counts, C0),
    C is C0 - 1,
    setarg(K1, Counts, C),
    Bit is 1 << K,
    setarg(S1, Dom, Bit),
    (   C > 0
    ->  propagate([S], State)
    ;   arg(L, ByLength, Same),
        used_up(Same, K, Bit, Dom, Open, Changed),
        propagate([S|Changed], State)
    ).

used_up([], _, _, _, _, []).
used_up([T|Ts], K, Bit, Dom, Open, Changed) :-
    T1 is T + 1,
    arg(T1, Dom, D),
    (   arg(T1, Open, true),
        getbit(D, K) =:= 1
    ->  D1 is D xor Bit,
        (   D1 =:= 0
        ->  dead_end,
            fail
        ;   setarg(T1, Dom, D1),
            Changed = [T|Changed1]
        )
    ;   Changed = Changed1
    ),
    used_up(Ts, K, Bit, Dom, Open, Changed1).

%   propagate(+Changed, +State): letter-level arc consistency from the
%   Changed sites, a FIFO queue (Front, then Back reversed) of sites each
%   queued once at a time; fails on a wipe-out, which adds 1 to the weight
%   of the crossing that emptied the domain.  Sup holds per site the
%   domain it was last revised from (none before the first revision): the
%   open neighbours agree with the letters of its words, and backtracking
%   restores domains and supports together, so a revision needs to look
%   only at the words gone since (source/6).
propagate(Changed, State) :-
    propagate(Changed, [], State).

propagate([], [], _) :-
    !.
propagate([], Back, State) :-
    !,
    reverse(Back, Front),
    propagate(Front, [], State).
propagate([S|Front], Back0, State) :-
    State = st(Dom, Open, _, Weights, _, Links, Lengths, _, Tables, Sup, _, _),
    S1 is S + 1,
    arg(S1, Links, SiteLinks),
    arg(S1, Dom, DS),
    arg(S1, Sup, Last),
    setarg(S1, Sup, DS),
    source(Last, DS, S1, Lengths, Tables, Source),
    (   Source == unchanged
    ->  Back = Back0
    ;   revise_links(SiteLinks, Source, Front, Back0, Back, Dom, Open, Weights)
    ),
    propagate(Front, Back, State).

%   source(+Last, +DS, +S1, +Lengths, +Tables, -Source): what a revision
%   from the site reads.  unchanged when no word went since Last: nothing
%   to revise.  When one word went, only its letters can have lost their
%   last word (the neighbours agree with Last), so lost(Word, DS); else
%   word(Word) for a domain of one word, or domain(DS).
source(Last, DS, S1, Lengths, Tables, Source) :-
    (   Last == none
    ->  whole_source(DS, S1, Lengths, Tables, Source)
    ;   Last =:= DS
    ->  Source = unchanged
    ;   popcount(Last xor DS) =:= 1
    ->  K is msb(Last xor DS),
        word_of(S1, K, Lengths, Tables, Word),
        Source = lost(Word, DS)
    ;   whole_source(DS, S1, Lengths, Tables, Source)
    ).

whole_source(DS, S1, Lengths, Tables, Source) :-
    (   popcount(DS) =:= 1
    ->  K is msb(DS),
        word_of(S1, K, Lengths, Tables, Word),
        Source = word(Word)
    ;   Source = domain(DS)
    ).

word_of(S1, K, Lengths, Tables, Word) :-
    arg(S1, Lengths, L),
    arg(L, Tables, table(Words, _, _)),
    word(Words, K, Word).

revise_links([], _, _, Back, Back, _, _, _).
revise_links([l(I, T, _, X, Joined, There)|Links], Source, Front, Back0, Back,
             Dom, Open, Weights) :-
    T1 is T + 1,
    (   arg(T1, Open, true)
    ->  arg(T1, Dom, DT),
        kept(Source, I, Joined, There, DT, Kept),
        (   Kept =:= DT
        ->  Back1 = Back0
        ;   Kept =:= 0
        ->  X1 is X + 1,
            arg(X1, Weights, W0),
            W is W0 + 1,
            nb_setarg(X1, Weights, W),
            dead_end,
            fail
        ;   setarg(T1, Dom, Kept),
            (   ( memberchk(T, Front) ; memberchk(T, Back0) )
            ->  Back1 = Back0
            ;   Back1 = [T|Back0]
            )
        )
    ;   Back1 = Back0
    ),
    revise_links(Links, Source, Front, Back1, Back, Dom, Open, Weights).

%   kept(+Source, +I, +Joined, +There, +DT, -Kept): the words of DT whose
%   letter over there is one that a word of the source has at position I
%   here.  A source of one word has one letter there; else each letter
%   of There that no source word has takes its words out of DT (fewer and
%   smaller operations than the union of the allowed words).  The tests
%   compare expressions rather than bind them: a big integer bound with
%   is/2 goes onto the global stack, one compared stays in C.
kept(word(Word), I, _, There, DT, Kept) :-
    I1 is I + 1,
    string_code(I1, Word, Code),
    (   memberchk(Code-Mask, There)
    ->  Kept is DT /\ Mask
    ;   Kept = 0
    ).
kept(lost(Word, DS), I, Joined, _, DT, Kept) :-
    I1 is I + 1,
    string_code(I1, Word, Code),
    (   entry(Joined, Code, Entry)
    ->  kept_joined([Entry], DS, DT, Kept)
    ;   Kept = DT
    ).
kept(domain(DS), _, Joined, _, DT, Kept) :-
    kept_joined(Joined, DS, DT, Kept).

%   entry(+Joined, +Code, -Entry): the entry of Joined for letter Code
%   (the term itself, as kept_joined/4 updates its residue in place).
entry([Entry0|Joined], Code, Entry) :-
    arg(1, Entry0, C),
    (   C =:= Code
    ->  Entry = Entry0
    ;   C < Code
    ->  entry(Joined, Code, Entry)
    ).

kept_joined([], _, Kept, Kept).
kept_joined([Entry|Joined], DS, Kept0, Kept) :-
    Entry = j(_, Here, There, Residue),
    (   getbit(DS, Residue) =:= 1
    ->  Kept1 = Kept0
    ;   Kept0 /\ There =\= 0          % first: does D(T) have the letter?
    ->  (   DS /\ Here =\= 0
        ->  Residue1 is lsb(DS /\ Here),
            nb_setarg(4, Entry, Residue1),
            Kept1 = Kept0
        ;   Kept1 is Kept0 /\ \There
        )
    ;   Kept1 = Kept0
    ),
    kept_joined(Joined, DS, Kept1, Kept).
