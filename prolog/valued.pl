/*  valued: fills from a scored word list, best words first, and branch
    and bound for the best fill.

    The strategy is specified in docs/search.md#valued; this module mirrors
    pybridge/search/valued.py step for step, so both engines make the same
    choices in the same order, find the same better fills and count the
    same nodes and dead ends.  What follows in the comments is how, not
    what.

    The dictionary is arcs.pl's (arcs:dictionary/3), loaded under the key
    of the word list ranked by score, highest first: bit K of a domain is
    the K-th word of that ranking, so the lowest bit of a domain is its
    best word and the words scoring above a value are a prefix.  The
    scores arrive once per process (kernel:load_scores_text/2), per length
    a term whose arguments are the scores of the ranked words
    (descending).  A score is an integer: the bridge
    scales the scores of a list as written to integers (pybridge.scores),
    so no float ever takes part.

    The state is one term: its net (arcs.pl's: the domains, their
    propagation, placing a word and the choice of site, shared with
    wdeg.pl) and what valued adds.  The value of the words placed changes
    with backtrackable setarg/3 and so comes back for free on
    backtracking; the node limit and the nodes of the current run (never
    undone) change with nb_setarg/3, and so does the control term the
    caller reads: the best value so far, the bound noted as a timeout
    unwinds, whether the time is up.  The clock is read at every node (as in Python), so that a
    timeout leaves the search where each level can note what it had not
    searched yet.

    No I/O here.
*/

:- module(valued,
          [ valued_search/9             % +Key, +ScoreKey, +Objective, +Cap, +Deadline,
                                        % +Control, +Board, +Arcs, +Crossings
          ]).

:- use_module(library(apply)).
:- use_module(kernel, [counted_node/0, count_backtrack/0, scores/2]).
:- use_module(arcs,
              [ dictionary/3,
                members/3,
                net/6,
                sites/2,
                fill_board/2,
                choose/3,
                place/3,
                propagate/2
              ]).

%   This family, as crossword.pl knows it (docs/search.md#adding-a-strategy):
%   it reads a dictionary (the words ranked by score) and its scores, its
%   strategy runs as valued(Key, ScoreKey), and it finds the best fill
%   (crossword:improve/8).
:- multifile crossword:family/2, crossword:family_strategy/3, crossword:family_search/7,
             crossword:reads_dictionary/1, crossword:optimises/1,
             crossword:family_improve/9.

crossword:family(valued, 4).
crossword:family_strategy(valued, valued, false).
crossword:reads_dictionary(valued).
crossword:optimises(valued).
crossword:family_search(valued, valued(Key, ScoreKey), _, _, Board, Arcs, Crossings) :-
    Control = control(none, none, false),
    (   valued_search(Key, ScoreKey, none, none, none, Control, Board, Arcs, Crossings)
    ;   arg(3, Control, true),          % the node limit (node/3): as kernel's count_node
        throw(time_limit_exceeded)
    ).
crossword:family_improve(valued, valued(Key, ScoreKey), Objective, Cap, Deadline, Control,
                         Board, Arcs, Crossings) :-
    valued_search(Key, ScoreKey, Objective, Cap, Deadline, Control, Board, Arcs, Crossings).

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
%   none (or the value of a fill in hand: then only better fills are
%   searched, in one run without restarts), none, false: the search keeps
%   in it the best value so far, the greatest value of what a timeout left
%   unsearched, and whether the time is up.  Board, Arcs and Crossings are
%   layout:layout/5's.

valued_search(Key, ScoreKey, Objective, Cap, Deadline, Control, Board, Arcs,
              Crossings) :-
    dictionary(Key, Tables, Copies),
    scores(ScoreKey, Scores),
    net(Tables, Copies, Board, Arcs, Crossings, Net),
    State = st(Net, run(none, 0), Scores, none, Objective, Control, Deadline, Cap),
    arg(1, Net, Dom),
    Dom =.. [_|Domains],
    (   memberchk(0, Domains)           % a site no word fits, before any crossing
    ->  dead_end,
        fail
    ;   true
    ),
    sites(Net, Sites),
    propagate(Sites, Net),
    length(Sites, N),
    first_limit(PerSite, Extra),
    arg(1, Control, Beat),
    (   Beat == none
    ->  Limit is PerSite * N + Extra
    ;   Limit = none                    % a fill to beat is in hand: one run to the end
    ),
    runs(Limit, State),
    fill_board(Net, Board).

%   The state: st(Net, Run, Scores, Placed, Objective, Control, Deadline,
%   Cap): Net arcs.pl's, Run = run(Limit, Nodes), Scores per length the
%   scores of the ranked words, Placed the value of the words placed (none
%   before the first), the others valued_search/9's.

%   runs(+Limit, +State): run after run from the root, each with a node
%   limit growing by growth/2, until one ends within it; once a run finds
%   a fill it goes on without a limit.  Succeeds once per fill.
runs(Limit, State) :-
    arg(2, State, Run),
    nb_setarg(1, Run, Limit),
    nb_setarg(2, Run, 0),
    catch(fill(State), valued_restart, Restarted = true),
    (   Restarted == true
    ->  growth(Times, Over),
        Limit1 is Limit * Times // Over,
        runs(Limit1, State)
    ;   nb_setarg(1, Run, none)
    ).

%   fill(+State): fill the open sites; succeeds once per fill (with an
%   objective, once per better fill).
fill(State) :-
    bound_step(State),
    open_sites(State, Left),
    (   Left == []
    ->  arg(5, State, Objective),
        (   Objective == none
        ->  true
        ;   arg(4, State, Placed),
            arg(6, State, Control),
            nb_setarg(1, Control, Placed)
        )
    ;   arg(1, State, Net),
        choose(Left, Net, S),
        rest(Left, S, State, Rest),
        arg(1, Net, Dom),
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
    (   add_placed(State, Score),
        arg(1, State, Net),
        place(S, K, Net),
        fill(State)
    ;   timed_out(State)
    ->  note_next(Ks, S, Rest, State),
        fail
    ;   try(Ks, S, Rest, State)
    ).

open_sites(State, Left) :-
    arg(1, State, Net),
    arg(2, Net, Open),
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
    arg(1, State, Net),
    arg(6, Net, Lengths),
    S1 is S + 1,
    arg(S1, Lengths, L),
    arg(3, State, Scores),
    arg(L, Scores, Term),
    K1 is K + 1,
    arg(K1, Term, Score).

%   node(+State, +Rest, +Score): count a node; when the time is up (or
%   the node limit is reached: no node counted), note the bound of the
%   words not searched at this level and fail; past the run's limit,
%   restart.
node(State, Rest, Score) :-
    arg(7, State, Deadline),
    (   (   \+ counted_node
        ;   Deadline \== none,
            get_time(Now),
            Now > Deadline
        )
    ->  arg(6, State, Control),
        nb_setarg(3, Control, true),
        note(State, Rest, Score),
        fail
    ;   true
    ),
    arg(2, State, Run),
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
    arg(6, State, Control),
    arg(3, Control, true).

note_next([], _, _, _).
note_next([K|_], S, Rest, State) :-
    score(State, S, K, Score),
    note(State, Rest, Score).

%   note(+State, +Rest, +Score): the words from Score down at a level the
%   timeout left are worth at most Rest with Score.
note(State, Rest, Score) :-
    combine(State, Rest, Score, Bound),
    arg(6, State, Control),
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
    ;   arg(5, State, min)
    ->  Value1 is min(Value, Score)
    ;   Value1 is Value + Score
    ).

%   best(+State, +S, -Score): the best score left in D(S), its lowest bit's.
best(State, S, Score) :-
    arg(1, State, Net),
    arg(1, Net, Dom),
    S1 is S + 1,
    arg(S1, Dom, D),
    K is lsb(D),
    score(State, S, K, Score).

%   rest(+Left, +Chosen, +State, -Rest): the value of the words placed with
%   the best of every open site of Left but Chosen (without an objective,
%   only the words placed).
rest(Left, Chosen, State, Rest) :-
    arg(4, State, Placed),
    (   arg(5, State, none)
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
    arg(6, State, Control),
    arg(1, Control, Best),
    (   Best == none
    ->  true
    ;   arg(8, State, Cap),
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
    arg(6, State, Control),
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
        ;   arg(1, State, Net),
            propagate(Changed, Net),
            bound_pass(State, Best)
        )
    ).

%   cut_site(+State, +Best, +Total, +S, -Changed, ?Tail): D(S) keeps the
%   words scoring above the cut (min: Best; sum: Best less what the other
%   open sites and the words placed give at best).
cut_site(State, Best, Total, S, Changed, Tail) :-
    (   arg(5, State, min)
    ->  Cut = Best
    ;   best(State, S, Own),
        Cut is Best - (Total - Own)
    ),
    arg(1, State, Net),
    Net = net(Dom, _, _, _, _, Lengths, _, _, _, _, _),
    S1 is S + 1,
    arg(S1, Lengths, L),
    arg(3, State, Scores),
    arg(L, Scores, Term),
    above(Term, Cut, Keep),
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

%   add_placed(+State, +Score): with an objective, a word of Score joins
%   the value of the words placed.
add_placed(State, Score) :-
    (   arg(5, State, none)
    ->  true
    ;   arg(4, State, Placed0),
        combine(State, Placed0, Score, Placed),
        setarg(4, State, Placed)
    ).
