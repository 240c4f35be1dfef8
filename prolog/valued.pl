/*  valued: fills from a scored word list, best words first, and branch
    and bound for the best fill.

    The strategy is specified in docs/search.md#valued; this module mirrors
    pybridge/search/valued.py step for step, so both engines make the same
    choices in the same order, find the same better fills and count the
    same nodes and dead ends.  What follows in the comments is how, not
    what.

    The dictionary is wdeg.pl's (wdeg:dictionary/3), loaded under the key
    of the word list ranked by score, highest first: bit K of a domain is
    the K-th word of that ranking, so the lowest bit of a domain is its
    best word and the words scoring above a value are a prefix.  The
    scores arrive once per process (kernel:load_scores_text/2), per length
    a term whose arguments are the scores of the ranked words
    (descending).  A score is an integer: the bridge
    scales the scores of a list as written to integers (pybridge.scores),
    so no float ever takes part.

    The state is one term.  The domains, the open flags, the copies left
    and the value of the words placed change with backtrackable setarg/3
    and so come back for free on backtracking; the crossing weights, the
    node limit and the nodes of the current run (never undone) change with
    nb_setarg/3, and so does the control term the caller reads: the best
    value so far, the bound noted as a timeout unwinds, whether the time
    is up.  The clock is read at every node (as in Python), so that a
    timeout leaves the search where each level can note what it had not
    searched yet.

    No I/O here.
*/

:- module(valued,
          [ valued_search/9             % +Key, +ScoreKey, +Objective, +Cap, +Deadline,
                                        % +Control, +Board, +Arcs, +Crossings
          ]).

:- use_module(library(apply)).
:- use_module(library(error)).
:- use_module(library(lists)).
:- use_module(library(pairs)).
:- use_module(kernel, [count_node/0, count_backtrack/0, scores/2]).
:- use_module(wdeg, [dictionary/3, members/3]).

:- set_prolog_flag(optimise, true).

first_limit(2, 10).     % a run's first node limit: 2 per site and 10 more
growth(3, 2).           % each run's limit is the last one's times 3/2

                 /*******************************
                 *            SEARCH            *
                 *******************************/

%!  valued_search(+Key:integer, +ScoreKey:integer, +Objective, +Cap,
%!                +Deadline, +Control, +Board, +Arcs, +Crossings) is nondet.
%
%   Bind every site of Board to a word of the dictionary kept under Key
%   (ranked by the scores kept under ScoreKey), once per fill.  Objective
%   is none (every fill, best words first), min or sum (each fill better
%   than the one before: branch and bound).  Cap is none or a value no
%   fill can beat (then the search stops at a fill of that value).
%   Deadline is none or the time (get_time/1) at which the search stops.
%   Control is control(Best, Bound, TimedOut), created by the caller with
%   none, none, false: the search keeps in it the best value so far, the
%   greatest value of what a timeout left unsearched, and whether the time
%   is up.  Board, Arcs and Crossings are layout:layout/5's.

valued_search(Key, ScoreKey, Objective, Cap, Deadline, Control, Board, Arcs,
              Crossings) :-
    dictionary(Key, Tables, Copies),
    scores(ScoreKey, Scores),
    state(Tables, Copies, Scores, Objective, Cap, Deadline, Control, Board,
          Arcs, Crossings, State),
    arg(1, State, Dom),
    Dom =.. [_|Domains],
    (   memberchk(0, Domains)           % a site no word fits, before any crossing
    ->  dead_end,
        fail
    ;   true
    ),
    functor(Dom, _, N),
    numlist_(0, N, Sites),
    propagate(Sites, State),
    first_limit(PerSite, Extra),
    Limit is PerSite * N + Extra,
    runs(Limit, State),
    words(State, Words),
    maplist(word_vars, Words, Board).

word_vars(Word, Vars) :-
    string_chars(Word, Vars).

%   runs(+Limit, +State): run after run from the root, each with a node
%   limit growing by growth/2, until one ends within it; once a run finds
%   a fill it goes on without a limit.  Succeeds once per fill.
runs(Limit, State) :-
    arg(5, State, Run),
    nb_setarg(1, Run, Limit),
    nb_setarg(2, Run, 0),
    catch(fill(State), valued_restart, Restarted = true),
    (   Restarted == true
    ->  growth(Times, Over),
        Limit1 is Limit * Times // Over,
        runs(Limit1, State)
    ;   nb_setarg(1, Run, none)
    ).

%   The state: st(Dom, Open, Left, Weights, Run, Links, Lengths, ByLength,
%   Tables, Scores, Placed, Objective, Control, Deadline, Cap).  Run is
%   run(Limit, Nodes).  Links holds per site its arcs as l(I, T, J, X,
%   Joined, There): position I here is position J of site T, crossing X;
%   There the Code-Mask pairs of T at J, Joined as join_pairs/4 makes it.
%   Placed is the value of the words placed (none before the first).
state(Tables, Copies, Scores, Objective, Cap, Deadline, Control, Board, Arcs,
      Crossings, State) :-
    maplist(length, Board, LengthList),
    Lengths =.. [lengths|LengthList],
    maplist(site_links(Tables, LengthList), LengthList, Arcs, LinkLists),
    Links =.. [links|LinkLists],
    maplist(initial_domain(Tables), Board, Domains),
    Dom =.. [dom|Domains],
    length(Board, N),
    functor(Open, open, N),
    forall(between(1, N, I), nb_setarg(I, Open, true)),
    functor(Weights, weights, Crossings),
    forall(between(1, Crossings, X), nb_setarg(X, Weights, 1)),
    by_length(LengthList, Tables, ByLength),
    left_copies(Copies, ByLength, Left),
    State = st(Dom, Open, Left, Weights, run(none, 0), Links, Lengths, ByLength,
               Tables, Scores, none, Objective, Control, Deadline, Cap).

site_links(Tables, Lengths, L, Arcs, Links) :-
    maplist(site_link(Tables, Lengths, L), Arcs, Links).

site_link(Tables, Lengths, L, x(I, T, J, X), l(I, T, J, X, Joined, There)) :-
    nth0(T, Lengths, LT),
    position_pairs(Tables, L, I, Here),
    position_pairs(Tables, LT, J, There),
    (   table(Tables, L, table(words(_, None, _), _, _))
    ->  true
    ;   None = 0
    ),
    join_pairs(There, Here, None, Joined).

%   join_pairs(+There, +Here, +None, -Joined): per letter of There, in
%   order of code, j(Code, HereMask, ThereMask, Residue): the words of this
%   site with that letter at I (0 when none has it), those of T with it at
%   J, and a word of HereMask last found in the domain revised from (kept
%   with nb_setarg/3; None, a bit no domain has, when there is none).
%   While the residue stays in the domain the letter is known to be there
%   without a big AND (residual supports: they save work, never change a
%   result).
join_pairs([], _, _, []).
join_pairs([C-M|There], Here0, None, [j(C, H, M, Residue)|Joined]) :-
    drop_below_pairs(Here0, C, Here),
    (   Here = [C-H|_]
    ->  Residue is lsb(H)
    ;   H = 0,
        Residue = None
    ),
    join_pairs(There, Here, None, Joined).

drop_below_pairs([], _, []).
drop_below_pairs([C0-H|Here0], C, Here) :-
    (   C0 < C
    ->  drop_below_pairs(Here0, C, Here)
    ;   Here = [C0-H|Here0]
    ).

position_pairs(Tables, L, P, Pairs) :-
    (   table(Tables, L, table(_, _, Masks))
    ->  P1 is P + 1,
        arg(P1, Masks, Pairs)
    ;   Pairs = []
    ).

table(Tables, L, Table) :-
    functor(Tables, _, Max),
    L >= 1,
    L =< Max,
    arg(L, Tables, Table),
    Table \== none.

%   initial_domain(+Tables, +Vars, -Domain): the words of the site's length
%   with its predefined letters (the bound variables of the site).
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

%   by_length(+Lengths, +Tables, -ByLength): per length (an argument of
%   the arity of Tables) the sites of that length, ascending.
by_length(Lengths, Tables, ByLength) :-
    functor(Tables, _, Max),
    Top is max(Max, 1),
    functor(ByLength, by_length, Top),
    forall(between(1, Top, L), nb_setarg(L, ByLength, [])),
    length(Lengths, N),
    numlist_(0, N, Sites),
    reverse(Sites, Backwards),
    foldl(add_site(Lengths, ByLength), Backwards, _, _).

add_site(Lengths, ByLength, S, _, _) :-
    nth0(S, Lengths, L),
    functor(ByLength, _, Max),
    (   L =< Max
    ->  arg(L, ByLength, Sites),
        nb_setarg(L, ByLength, [S|Sites])
    ;   true
    ).

%   left_copies(+Copies, +ByLength, -Left): a copy of the copies of each
%   word, for the lengths some site has, to count down.
left_copies(Copies, ByLength, Left) :-
    Copies =.. [Name|Counts],
    functor(ByLength, _, Max),
    length(Counts, N),
    numlist(1, N, Ls),
    maplist(left_count(ByLength, Max), Ls, Counts, LeftCounts),
    Left =.. [Name|LeftCounts].

left_count(ByLength, Max, L, Counts, Left) :-
    (   L =< Max,
        arg(L, ByLength, [_|_]),
        Counts \== none
    ->  duplicate_term(Counts, Left)
    ;   Left = none
    ).

numlist_(Low, High, List) :-
    High1 is High - 1,
    (   High1 < Low
    ->  List = []
    ;   numlist(Low, High1, List)
    ).

words(State, Words) :-
    State = st(Dom, _, _, _, _, _, Lengths, _, Tables, _, _, _, _, _, _),
    Dom =.. [_|Domains],
    Lengths =.. [_|LengthList],
    maplist(domain_word(Tables), LengthList, Domains, Words).

domain_word(Tables, L, D, Word) :-
    K is msb(D),
    word_of(Tables, L, K, Word).

word_of(Tables, L, K, Word) :-
    arg(L, Tables, table(words(L, _, All), _, _)),
    Start is K * L,
    sub_string(All, Start, L, _, Word).

%   fill(+State): fill the open sites; succeeds once per fill (with an
%   objective, once per better fill).
fill(State) :-
    bound_step(State),
    open_sites(State, Left),
    (   Left == []
    ->  arg(12, State, Objective),
        (   Objective == none
        ->  true
        ;   arg(11, State, Placed),
            arg(13, State, Control),
            nb_setarg(1, Control, Placed)
        )
    ;   choose(Left, State, S),
        rest(Left, S, State, Rest),
        arg(1, State, Dom),
        S1 is S + 1,
        arg(S1, Dom, D),
        members(D, Candidates, []),
        try(Candidates, S, Rest, State)
    ).

%   try(+Candidates, +S, +Rest, +State): put each candidate in turn in
%   site S (while it may still lead to a better fill), and fill the rest.
try([K|Ks], S, Rest, State) :-
    score(State, S, K, Score),
    worth(State, Rest, Score),
    node(State, Rest, Score),
    (   place(S, K, State),
        fill(State)
    ;   timed_out(State)
    ->  note_next(Ks, S, Rest, State),
        fail
    ;   try(Ks, S, Rest, State)
    ).

open_sites(State, Left) :-
    arg(2, State, Open),
    functor(Open, _, N),
    open_from(N, Open, [], Left).

open_from(0, _, Left, Left) :-
    !.
open_from(I, Open, Left0, Left) :-
    S is I - 1,
    (   arg(I, Open, true)
    ->  Left1 = [S|Left0]
    ;   Left1 = Left0
    ),
    open_from(S, Open, Left1, Left).

score(State, S, K, Score) :-
    arg(7, State, Lengths),
    S1 is S + 1,
    arg(S1, Lengths, L),
    arg(10, State, Scores),
    arg(L, Scores, Term),
    K1 is K + 1,
    arg(K1, Term, Score).

%   node(+State, +Rest, +Score): count a node; when the time is up, note
%   the bound of the words not searched at this level and fail; past the
%   run's limit, restart.
node(State, Rest, Score) :-
    count_node,
    arg(14, State, Deadline),
    (   Deadline \== none,
        get_time(Now),
        Now > Deadline
    ->  arg(13, State, Control),
        nb_setarg(3, Control, true),
        note(State, Rest, Score),
        fail
    ;   true
    ),
    arg(5, State, Run),
    arg(2, Run, Nodes0),
    Nodes is Nodes0 + 1,
    nb_setarg(2, Run, Nodes),
    arg(1, Run, Limit),
    (   Limit \== none,
        Nodes > Limit
    ->  throw(valued_restart)
    ;   true
    ).

timed_out(State) :-
    arg(13, State, Control),
    arg(3, Control, true).

note_next([], _, _, _).
note_next([K|_], S, Rest, State) :-
    score(State, S, K, Score),
    note(State, Rest, Score).

%   note(+State, +Rest, +Score): the words from Score down at a level the
%   timeout left are worth at most Rest with Score.
note(State, Rest, Score) :-
    combine(State, Rest, Score, Bound),
    arg(13, State, Control),
    arg(2, Control, Bound0),
    (   ( Bound0 == none ; Bound > Bound0 )
    ->  nb_setarg(2, Control, Bound)
    ;   true
    ).

dead_end :-
    count_backtrack.

                 /*******************************
                 *        VALUES AND BOUNDS     *
                 *******************************/

%   combine(+State, +Value, +Score, -Value1): Value (none: no word yet)
%   with one word of Score more.
combine(State, Value, Score, Value1) :-
    (   Value == none
    ->  Value1 = Score
    ;   arg(12, State, min)
    ->  Value1 is min(Value, Score)
    ;   Value1 is Value + Score
    ).

%   best(+State, +S, -Score): the best score left in D(S), its lowest bit's.
best(State, S, Score) :-
    arg(1, State, Dom),
    S1 is S + 1,
    arg(S1, Dom, D),
    K is lsb(D),
    score(State, S, K, Score).

%   rest(+Left, +Chosen, +State, -Rest): the value of the words placed with
%   the best of every open site of Left but Chosen (without an objective,
%   only the words placed).
rest(Left, Chosen, State, Rest) :-
    arg(11, State, Placed),
    (   arg(12, State, none)
    ->  Rest = Placed
    ;   foldl(rest_site(State, Chosen), Left, Placed, Rest)
    ).

rest_site(State, Chosen, T, Value0, Value) :-
    (   T =:= Chosen
    ->  Value = Value0
    ;   best(State, T, Score),
        combine(State, Value0, Score, Value)
    ).

%   worth(+State, +Rest, +Score): a word of Score at the chosen site may
%   still lead to a better fill than the best so far.
worth(State, Rest, Score) :-
    arg(13, State, Control),
    arg(1, Control, Best),
    (   Best == none
    ->  true
    ;   arg(15, State, Cap),
        (   Cap \== none,
            Best >= Cap
        ->  fail
        ;   combine(State, Rest, Score, Value),
            Value > Best
        )
    ).

%   bound_step(+State): with a best value so far, each open domain keeps
%   only the words that can still be part of a better fill, and the
%   changes are propagated, to a fixpoint; a dead end when the words
%   placed with the best of each open site cannot beat it.
bound_step(State) :-
    arg(13, State, Control),
    arg(1, Control, Best),
    (   Best == none
    ->  true
    ;   bound_pass(State, Best)
    ).

bound_pass(State, Best) :-
    open_sites(State, Left),
    rest(Left, -1, State, Total),
    (   ( Total == none ; Total =< Best )
    ->  dead_end,
        fail
    ;   foldl(cut_site(State, Best, Total), Left, Changed, []),
        (   Changed == []
        ->  true
        ;   propagate(Changed, State),
            bound_pass(State, Best)
        )
    ).

%   cut_site(+State, +Best, +Total, +S, -Changed, ?Tail): D(S) keeps the
%   words scoring above the cut (min: Best; sum: Best less what the other
%   open sites and the words placed give at best).
cut_site(State, Best, Total, S, Changed, Tail) :-
    (   arg(12, State, min)
    ->  Cut = Best
    ;   best(State, S, Own),
        Cut is Best - (Total - Own)
    ),
    arg(7, State, Lengths),
    S1 is S + 1,
    arg(S1, Lengths, L),
    arg(10, State, Scores),
    arg(L, Scores, Term),
    above(Term, Cut, Keep),
    arg(1, State, Dom),
    arg(S1, Dom, D),
    D1 is D /\ ((1 << Keep) - 1),
    (   D1 =:= D
    ->  Changed = Tail
    ;   setarg(S1, Dom, D1),
        Changed = [S|Tail]
    ).

%   above(+Term, +Cut, -Count): how many of the scores of Term (descending)
%   are above Cut.
above(Term, Cut, Count) :-
    functor(Term, _, N),
    above(Term, Cut, 0, N, Count).

above(Term, Cut, Low, High, Count) :-
    (   Low >= High
    ->  Count = Low
    ;   Mid is (Low + High) // 2,
        Mid1 is Mid + 1,
        arg(Mid1, Term, Score),
        (   Score > Cut
        ->  above(Term, Cut, Mid1, High, Count)
        ;   above(Term, Cut, Low, Mid, Count)
        )
    ).

                 /*******************************
                 *            CHOICES           *
                 *******************************/

%   choose(+Left, +State, -Site): the open site of smallest |D| / (the
%   weights of its crossings with open sites), ties to the first in Left.
choose([S|Ss], State, Best) :-
    measure(State, S, Size, Weight),
    choose(Ss, State, S, Size, Weight, Best).

choose([], _, Best, _, _, Best).
choose([S|Ss], State, Best0, Size0, Weight0, Best) :-
    measure(State, S, Size, Weight),
    (   Size * Weight0 < Size0 * Weight
    ->  choose(Ss, State, S, Size, Weight, Best)
    ;   choose(Ss, State, Best0, Size0, Weight0, Best)
    ).

measure(State, S, Size, Weight) :-
    State = st(Dom, Open, _, Weights, _, Links, _, _, _, _, _, _, _, _, _),
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

                 /*******************************
                 *    PLACING AND PROPAGATING   *
                 *******************************/

%   place(+S, +K, +State): put word K in site S and propagate; fails on a
%   dead end.  When its last copy is placed the word leaves the other
%   open sites of its length.
place(S, K, State) :-
    State = st(Dom, Open, Left, _, _, _, Lengths, ByLength, _, _, Placed0, Objective,
               _, _, _),
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
    (   Objective == none
    ->  true
    ;   score(State, S, K, Score),
        combine(State, Placed0, Score, Placed),
        setarg(11, State, Placed)
    ),
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
%   queued once at a time; fails on a wipe-out, which adds 1 to the
%   weight of the crossing that emptied the domain.
propagate(Changed, State) :-
    propagate(Changed, [], State).

propagate([], [], _) :-
    !.
propagate([], Back, State) :-
    !,
    reverse(Back, Front),
    propagate(Front, [], State).
propagate([S|Front], Back0, State) :-
    State = st(Dom, Open, _, Weights, _, Links, Lengths, _, Tables, _, _, _, _, _, _),
    S1 is S + 1,
    arg(S1, Links, SiteLinks),
    arg(S1, Dom, DS),
    arg(S1, Lengths, L),
    source(DS, L, Tables, Source),
    revise_links(SiteLinks, Source, DS, Front, Back0, Back, Dom, Open, Weights),
    propagate(Front, Back, State).

%   source(+DS, +L, +Tables, -Source): word(Word) for a domain of one word
%   (its letter at each position is all a revision needs), else domain.
source(DS, L, Tables, Source) :-
    (   DS /\ (DS - 1) =:= 0
    ->  K is msb(DS),
        word_of(Tables, L, K, Word),
        Source = word(Word)
    ;   Source = domain
    ).

revise_links([], _, _, _, Back, Back, _, _, _).
revise_links([l(I, T, _, X, Joined, There)|Links], Source, DS, Front, Back0, Back,
             Dom, Open, Weights) :-
    T1 is T + 1,
    (   arg(T1, Open, true)
    ->  arg(T1, Dom, DT),
        kept(Source, I, Joined, There, DS, DT, Kept),
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
    revise_links(Links, Source, DS, Front, Back1, Back, Dom, Open, Weights).

%   kept(+Source, +I, +Joined, +There, +DS, +DT, -Kept): the words of DT
%   whose letter over there is one that some word of DS has at position I
%   here: each letter of There that no word of DS has takes its words out.
%   The tests compare expressions rather than bind them where they can: a
%   big integer bound with is/2 goes onto the global stack.
kept(word(Word), I, _, There, _, DT, Kept) :-
    I1 is I + 1,
    string_code(I1, Word, Code),
    (   memberchk(Code-Mask, There)
    ->  Kept is DT /\ Mask
    ;   Kept = 0
    ).
kept(domain, _, Joined, _, DS, DT, Kept) :-
    kept_joined(Joined, DS, DT, Kept).

kept_joined([], _, Kept, Kept).
kept_joined([Entry|Joined], DS, Kept0, Kept) :-
    Entry = j(_, Here, There, Residue),
    (   getbit(DS, Residue) =:= 1
    ->  Kept1 = Kept0
    ;   Kept0 /\ There =:= 0           % D(T) has no word with this letter
    ->  Kept1 = Kept0
    ;   DS /\ Here =\= 0
    ->  Residue1 is lsb(DS /\ Here),
        nb_setarg(4, Entry, Residue1),
        Kept1 = Kept0
    ;   Kept1 is Kept0 /\ \There
    ),
    kept_joined(Joined, DS, Kept1, Kept).
