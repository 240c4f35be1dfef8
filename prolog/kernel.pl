/*  kernel: what every search shares, the counters and the random draws.

    The counters (docs/search.md#counters) and Knuth's MMIX LCG
    (docs/search.md#seeds); this module is the twin of those parts of
    pybridge/search/kernel.py (Counters, Lcg) and gives the same numbers.

    The counters are one term in a global variable (flag/3 would take a
    mutex each time), per thread, and are reached only through the predicates below:
    reset_counters/0, count_node/0 and its like (add one) and counter/2
    (read).  They are not undone on backtracking.  A predicate per counter,
    without arguments, is the cheapest call there is: the searches count
    at every node and every dead end.

    The words' scores (valued.pl ranks by them, wdeg.pl breaks ties with
    them) arrive as text once per process and are kept in global
    variables, like the dictionaries (load_scores_text/2): remember/4
    keeps the last few loaded of each kind.

    The LCG's state is a plain integer passed along by the caller (no
    global): lcg_state/2 makes it from a seed, lcg_draw/3 draws.  A search
    that keeps the state with nb_setarg/3 keeps it as two 32-bit halves
    (lcg_halves/3): a 64-bit integer is too big to be tagged, and
    nb_setarg/3 of it copies it onto the global stack and freezes the
    stack below it, so backtracking would no longer free what the search
    allocated.

    A search runs under a time limit (limited/2) and can be watched
    (watch/2): every so many seconds an alarm, in the searching thread,
    reads the counters and calls the watcher the host gave, a predicate of
    its own (the Python bridge registers one for a progress display).  The
    search is not changed by it: it runs the same steps and counts the
    same nodes.  Nothing is added to a search nobody watches.

    No I/O here.
*/

:- module(kernel,
          [ reset_counters/0,           % every counter to 0, no node limit
            reset_counters/1,           % +NodeLimit
            count_node/0,               % nodes + 1, or stop at the node limit
            counted_node/0,             % nodes + 1, or fail at the node limit
            count_backtrack/0,          % backtracks + 1
            count_solution/0,           % solutions + 1
            count_leaf/0,               % leaves + 1
            count_restart/1,            % +Depth: restarts + 1, deepest run
            counter/2,                  % +Counter, -Value
            watch/2,                    % +Seconds, :Watcher
            unwatch/0,
            limited/2,                  % +TimeLimit, :Goal
            lcg_state/2,                % +Seed, -State
            lcg_draw/3,                 % +State0, -State, -Draw
            lcg_draws/4,                % +N, +State0, -Draws, -State
            random_below/4,             % +Bound, +State0, -State, -Value
            shuffle/4,                  % +Items0, +State0, -Items, -State
            lcg_halves/3,               % ?State, ?High, ?Low
            load_scores_text/2,         % +Key, +Text
            scores_loaded/1,            % +Key
            scores/2,                   % +Key, -Scores
            remember/4,                 % +Kind, +Kept, +Key, +Value
            remembered/2,               % +Kind, +Key
            recall/3                    % +Kind, +Key, -Value
          ]).

%   Arithmetic compiled inline: the counters add one at every node.
:- set_prolog_flag(optimise, true).

:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(library(error), [must_be/2]).
:- use_module(library(time),
              [ alarm/4, install_alarm/2, uninstall_alarm/1, remove_alarm/1,
                call_with_time_limit/2
              ]).

:- meta_predicate
    watch(+, 5),
    limited(+, 0).

kept_scores(4).         % score lists kept loaded, most recently loaded first

                 /*******************************
                 *           COUNTERS           *
                 *******************************/

%!  reset_counters is det.
%!  reset_counters(+NodeLimit) is det.
%
%   Every counter back to 0: nodes (words placed), backtracks (dead
%   ends), solutions (found by the search) and leaves (solutions seen by
%   cbj's levels); and the search's node limit: NodeLimit (none, or an
%   integer >= 0: the most nodes the search may count; reset_counters/0:
%   none).  Every search starts here, so no limit outlives its search.
%
%   ?- reset_counters, count_node, count_node, counter(nodes, N).
%   N = 2.

reset_counters :-
    reset_counters(none).

reset_counters(NodeLimit) :-
    (   NodeLimit == none
    ->  no_node_limit(Most)
    ;   must_be(nonneg, NodeLimit),
        Most = NodeLimit
    ),
    (   nb_current(kernel_counters, Counters),
        compound(Counters)
    ->  forall(between(1, 6, A), nb_setarg(A, Counters, 0)),
        nb_setarg(7, Counters, Most)
    ;   nb_setval(kernel_counters, counters(0, 0, 0, 0, 0, 0, Most))
    ).

%   The counters: one term in a global variable, counters(Nodes,
%   Backtracks, Solutions, Leaves, Restarts, Deepest, NodeLimit), each
%   argument a small integer changed in place with nb_setarg/3 (nb_setval/2
%   would copy its value into the global variable at every count).  The
%   term is made once per thread: nb_setval/2 of a compound puts it on the
%   global stack, which backtracking then no longer frees below it.

%!  count_node is det.
%!  count_backtrack is det.
%!  count_solution is det.
%!  count_leaf is det.
%
%   Add one to the counter nodes, backtracks, solutions or leaves.
%   count_node/0 at the node limit counts nothing and throws
%   time_limit_exceeded, as the time limit does (limited/2): a search
%   stopped by either ends with status timeout, the node limit at the
%   same node in both engines (pybridge/search/kernel.py, Counters.node).
%
%   ?- reset_counters, count_backtrack, counter(backtracks, B).
%   B = 1.
%
%   ?- reset_counters(1), count_node, catch(count_node, E, true),
%      counter(nodes, N).
%   E = time_limit_exceeded,
%   N = 1.

count_node :-
    (   counted_node
    ->  true
    ;   throw(time_limit_exceeded)
    ).

%!  counted_node is semidet.
%
%   count_node/0 for a search that keeps its own time limit (valued.pl):
%   fails, counting nothing, at the node limit.

counted_node :-
    nb_getval(kernel_counters, Counters),
    arg(1, Counters, N0),
    arg(7, Counters, Most),
    N0 < Most,
    N is N0 + 1,
    nb_setarg(1, Counters, N).

%   no_node_limit(-Most): the node limit of a search without one: more
%   nodes than any search counts, small enough to be a tagged integer.
no_node_limit(1125899906842624).        % 2^50
count_backtrack :-
    add_one(2).
count_solution :-
    add_one(3).
count_leaf :-
    add_one(4).

add_one(A) :-
    nb_getval(kernel_counters, Counters),
    arg(A, Counters, N0),
    N is N0 + 1,
    nb_setarg(A, Counters, N).

%!  count_restart(+Depth:integer) is det.
%
%   A run of wdeg reached its node limit, Depth choices deep at its
%   deepest: restarts + 1, and deepest the larger of itself and Depth.
%
%   ?- reset_counters, count_restart(5), count_restart(3),
%      counter(restarts, R), counter(deepest, D).
%   R = 2,
%   D = 5.

count_restart(Depth) :-
    add_one(5),
    nb_getval(kernel_counters, Counters),
    arg(6, Counters, D0),
    D is max(D0, Depth),
    nb_setarg(6, Counters, D).

%!  counter(+Counter, -Value) is det.
%
%   The value of Counter: nodes, backtracks, solutions, leaves, restarts
%   or deepest.
%
%   ?- reset_counters, counter(solutions, S).
%   S = 0.

counter(Counter, N) :-
    counter_arg(Counter, A),
    nb_getval(kernel_counters, Counters),
    arg(A, Counters, N).

counter_arg(nodes, 1).
counter_arg(backtracks, 2).
counter_arg(solutions, 3).
counter_arg(leaves, 4).
counter_arg(restarts, 5).
counter_arg(deepest, 6).

                 /*******************************
                 *           WATCHING           *
                 *******************************/

%!  watch(+Seconds:number, :Watcher) is det.
%!  unwatch is det.
%
%   From now on, in this thread, limited/2 calls Watcher every Seconds
%   as call(Watcher, Nodes, Backtracks, Solutions, Restarts, Deepest);
%   unwatch/0 stops that.  Watcher runs from an alarm, inside the search:
%   it must be quick and must succeed (a failure or an error is ignored;
%   any other exception goes through and ends the search).

watch(Seconds, Watcher) :-
    must_be(number, Seconds),
    must_be(callable, Watcher),
    nb_setval(kernel_watch, watch(Seconds, Watcher)).

unwatch :-
    nb_setval(kernel_watch, none).

%!  limited(+TimeLimit, :Goal) is semidet.
%
%   once(Goal), or the exception time_limit_exceeded once TimeLimit
%   seconds (wall time) have passed; TimeLimit none: no limit.  Watched
%   as watch/2 asked, if it did: the watcher is called every so many
%   seconds, and once more with the final counters when Goal succeeds.
%
%   A watched goal has one alarm, which both calls the watcher and keeps
%   the time limit: with two alarms (call_with_time_limit/2's and one to
%   watch), the time limit's exception, raised while the other alarm's
%   goal ran, was at times lost and the search ran on.
%
%   ?- catch(limited(0.05, (repeat, fail)), E, true).
%   E = time_limit_exceeded.

limited(TimeLimit, Goal) :-
    (   nb_current(kernel_watch, watch(Seconds, Watcher))
    ->  deadline(TimeLimit, Deadline),
        setup_call_cleanup(
            alarm(Seconds, kernel:tick, Id, [install(false)]),
            ( nb_setval(kernel_ticker, ticker(Id, Seconds, Deadline, Watcher)),
              schedule(Id, Seconds, Deadline),
              once(Goal)
            ),
            remove_alarm(Id)),
        tell_watcher(Watcher)
    ;   TimeLimit == none
    ->  once(Goal)
    ;   call_with_time_limit(TimeLimit, Goal)
    ).

deadline(none, none) :- !.
deadline(Seconds, Deadline) :-
    must_be(number, Seconds),
    get_time(Now),
    Deadline is Now + Seconds.

%   schedule(+Id, +Seconds, +Deadline): the alarm Id is due in Seconds,
%   or at Deadline if that comes first.
schedule(Id, Seconds, Deadline) :-
    (   Deadline == none
    ->  In = Seconds
    ;   get_time(Now),
        In is max(0.0, min(Seconds, Deadline - Now))
    ),
    uninstall_alarm(Id),
    install_alarm(Id, In).

%   tick: the alarm's goal: past the deadline, throw time_limit_exceeded;
%   else tell the watcher and set the alarm again.
tick :-
    nb_getval(kernel_ticker, ticker(Id, Seconds, Deadline, Watcher)),
    (   Deadline \== none,
        get_time(Now),
        Now >= Deadline
    ->  throw(time_limit_exceeded)
    ;   tell_watcher(Watcher),
        schedule(Id, Seconds, Deadline)
    ).

%   tell_watcher(+Watcher): call it with the counters; it cannot fail the
%   search, nor stop it by an error (but by another exception).
tell_watcher(Watcher) :-
    maplist(counter, [nodes, backtracks, solutions, restarts, deepest], [N, B, S, R, D]),
    catch(ignore(call(Watcher, N, B, S, R, D)), error(_, _), true).

                 /*******************************
                 *              LCG             *
                 *******************************/

%!  lcg_state(+Seed:integer, -State:integer) is det.
%
%   The LCG's state for Seed: Seed mod 2^64.
%
%   ?- lcg_state(-1, S).
%   S = 18446744073709551615.

lcg_state(Seed, State) :-
    State is Seed mod 2^64.

%!  lcg_draw(+State0:integer, -State:integer, -Draw:integer) is det.
%
%   One draw: State = (State0 * 6364136223846793005 +
%   1442695040888963407) mod 2^64, Draw = State >> 33.
%
%   ?- lcg_draw(1, _, D).
%   D = 908834774.

lcg_draw(State0, State, Draw) :-
    State is (State0 * 6364136223846793005 + 1442695040888963407) mod 2^64,
    Draw is State >> 33.

%!  lcg_draws(+N:integer, +State0:integer, -Draws:list(integer),
%!            -State:integer) is det.
%
%   N draws in a row.
%
%   ?- lcg_draws(3, 1, Ds, _).
%   Ds = [908834774, 1093944153, 1392341196].

lcg_draws(N, State0, Draws, State) :-
    length(Draws, N),
    foldl(draw_into, Draws, State0, State).

draw_into(Draw, State0, State) :-
    lcg_draw(State0, State, Draw).

%!  random_below(+Bound:integer, +State0:integer, -State:integer,
%!               -Value:integer) is det.
%
%   The next draw mod Bound (Bound > 0).
%
%   ?- random_below(10, 1, _, V).
%   V = 4.

random_below(Bound, State0, State, Value) :-
    lcg_draw(State0, State, Draw),
    Value is Draw mod Bound.

%!  shuffle(+Items0:list, +State0:integer, -Items:list, -State:integer) is det.
%
%   Fisher-Yates: for I from the last position (from 0) down to 1, the
%   items at I and at random_below(I + 1) swap places.
%
%   ?- shuffle([a, b, c, d, e], 0, Items, _).
%   Items = [e, d, b, a, c].

shuffle(Items0, State0, Items, State) :-
    Slots =.. [items|Items0],
    functor(Slots, _, D),
    Last is D - 1,
    shuffle_from(Last, Slots, State0, State),
    Slots =.. [_|Items].

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

%!  lcg_halves(?State:integer, ?High:integer, ?Low:integer) is det.
%
%   The LCG's 64-bit State and its two 32-bit halves, either way round:
%   from State when it is bound, else from High and Low (see the header
%   for why halves).
%
%   ?- lcg_halves(S, 1, 2).
%   S = 4294967298.

lcg_halves(State, High, Low) :-
    (   integer(State)
    ->  High is State >> 32,
        Low is State /\ 0xffffffff
    ;   State is High << 32 \/ Low
    ).

                 /*******************************
                 *            SCORES            *
                 *******************************/

%!  load_scores_text(+Key:integer, +Text:string) is det.
%
%   Keep under Key the scores of the words of a dictionary (valued.pl's,
%   ranked by score, or wdeg.pl's, which prefers higher-scored words among
%   equals), as pybridge.bridge sends them: per length a line "Length
%   Count" and a line of the Count scores (integers), space-separated, in
%   the order of the words of that length in the dictionary.  Split by
%   string functions: nothing in Text is read as a term.  The last
%   kept_scores/1 lists loaded are kept.
%
%   ?- load_scores_text(9, "2 2\n7 3\n").

load_scores_text(Key, Text) :-
    must_be(integer, Key),
    must_be(string, Text),
    split_string(Text, "\n", "", Lines),
    text_scores(Lines, Pairs),
    foldl(longer, Pairs, 0, Max),
    length(Args, Max),
    maplist(=(none), Args),
    Scores =.. [scores|Args],
    forall(member(L-Term, Pairs), nb_setarg(L, Scores, Term)),
    kept_scores(Kept),
    remember(kernel_scores, Kept, Key, Scores).

text_scores([""], []) :-
    !.
text_scores([Header, Line|Lines], [L-Term|Pairs]) :-
    split_string(Header, " ", "", [LengthText, CountText]),
    number_string(L, LengthText),
    number_string(N, CountText),
    (   N =:= 0
    ->  Numbers = []
    ;   split_string(Line, " ", "", Texts),
        maplist(number_string, Numbers, Texts)
    ),
    length(Numbers, N),
    Term =.. [s|Numbers],
    text_scores(Lines, Pairs).

longer(L-_, Max0, Max) :-
    Max is max(Max0, L).

%!  scores_loaded(+Key:integer) is semidet.
%
%   True when scores are kept under Key (in this thread).

scores_loaded(Key) :-
    remembered(kernel_scores, Key).

%!  scores(+Key:integer, -Scores) is det.
%
%   The scores kept under Key: per length (an argument) the term of the
%   scores of the words of that length, or none.

scores(Key, Scores) :-
    recall(kernel_scores, Key, Scores).

                 /*******************************
                 *       KEPT BETWEEN CALLS     *
                 *******************************/

%!  remember(+Kind:atom, +Kept:integer, +Key:integer, +Value) is det.
%
%   Keep Value under Kind and Key, in a global variable (per thread), for
%   the calls that follow; of each Kind only the Kept most recently
%   remembered stay (a big dictionary is megabytes).
%
%   ?- remember(example, 2, 1, a), remember(example, 2, 2, b),
%      remember(example, 2, 3, c), \+ remembered(example, 1),
%      recall(example, 3, Value).
%   Value = c.

remember(Kind, Kept, Key, Value) :-
    kept_name(Kind, Key, Name),
    nb_setval(Name, Value),
    (   nb_current(Kind, Keys0)
    ->  true
    ;   Keys0 = []
    ),
    delete(Keys0, Key, Others),
    Keep is Kept - 1,
    length(Others, Count),
    (   Count > Keep
    ->  length(Recent, Keep),
        append(Recent, Dropped, Others),
        forall(member(Old, Dropped), ( kept_name(Kind, Old, OldName), nb_delete(OldName) ))
    ;   Recent = Others
    ),
    nb_setval(Kind, [Key|Recent]).

%!  remembered(+Kind:atom, +Key:integer) is semidet.
%
%   True when a value of Kind is kept under Key (in this thread).

remembered(Kind, Key) :-
    kept_name(Kind, Key, Name),
    nb_current(Name, _).

%!  recall(+Kind:atom, +Key:integer, -Value) is det.
%
%   The value of Kind kept under Key (an existence error if there is none).

recall(Kind, Key, Value) :-
    kept_name(Kind, Key, Name),
    nb_getval(Name, Value).

kept_name(Kind, Key, Name) :-
    format(atom(Name), '~a_~d', [Kind, Key]).
