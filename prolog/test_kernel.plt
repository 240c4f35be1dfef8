/*  Tests of kernel.pl: the counters and the LCG.

    Run from the repository root:

        swipl -g run_tests -t halt prolog/test_kernel.plt

    The LCG's values are those of the Python engine's Lcg
    (pybridge/search/kernel.py) for the same seeds.
*/

:- begin_tests(kernel).

:- use_module(kernel).

test(counters_start_at_zero, true(Vs == [0, 0, 0, 0])) :-
    reset_counters,
    count_node,
    reset_counters,
    maplist(counter, [nodes, backtracks, solutions, leaves], Vs).

test(counters_apart, true(Vs == [3, 2, 1, 0])) :-
    reset_counters,
    forall(between(1, 3, _), count_node),
    forall(between(1, 2, _), count_backtrack),
    count_solution,
    maplist(counter, [nodes, backtracks, solutions, leaves], Vs).

%   Counting survives backtracking (the search counts its dead ends).
test(counters_not_undone, true(N-L == 2-1)) :-
    reset_counters,
    ( count_node, fail ; true ),
    ( count_leaf, count_node, fail ; true ),
    counter(nodes, N),
    counter(leaves, L).

%   A node limit: count_node/0 at it counts nothing and throws as the
%   time limit does, counted_node/0 fails; reset_counters/0 lifts it.
test(node_limit, true(R == [2, time_limit_exceeded, 2, fail, 3])) :-
    reset_counters(2),
    count_node,
    count_node,
    catch(count_node, E, true),
    counter(nodes, N),
    (   counted_node
    ->  Counted = true
    ;   Counted = fail
    ),
    reset_counters,
    forall(between(1, 3, _), count_node),
    counter(nodes, M),
    R = [2, E, N, Counted, M].

test(node_limit_zero, throws(time_limit_exceeded)) :-
    reset_counters(0),
    count_node.

test(node_limit_checked, throws(error(type_error(_, _), _))) :-
    reset_counters(many).

test(unknown_counter, fail) :-
    counter(words, _).

test(restarts_keep_the_deepest_run, true(RD == 2-7)) :-
    reset_counters,
    count_restart(7),
    count_restart(4),
    counter(restarts, R),
    counter(deepest, D),
    RD = R-D.

:- dynamic seen/1.

seen(N, _, _, _, _) :-
    assertz(seen(N)).

%   A watched goal is watched every so often, sees the counters of the
%   moment, and ends as it would unwatched; unwatched, nothing is called.
test(watched_goal_is_watched, true(Seen-Result == true-done)) :-
    retractall(seen(_)),
    reset_counters,
    count_node,
    watch(0.01, seen),
    call_cleanup(limited(none, (sleep(0.2), Result = done)), unwatch),
    (   seen(1) -> Seen = true ; Seen = false ).

test(unwatched_goal_is_not_watched, true(Seen == [])) :-
    retractall(seen(_)),
    unwatch,
    limited(none, sleep(0.05)),
    findall(N, seen(N), Seen).

test(watched_goal_fails_and_throws_as_unwatched, throws(oops)) :-
    watch(0.01, seen),
    call_cleanup(( \+ limited(1, fail), limited(1, throw(oops)) ), unwatch).

%   The time limit holds, watched or not, whatever the ticks.
test(time_limit, true(Es == [time_limit_exceeded, time_limit_exceeded])) :-
    unwatch,
    catch(limited(0.05, (repeat, fail)), E1, true),
    watch(0.001, seen),
    call_cleanup(catch(limited(0.05, (repeat, fail)), E2, true), unwatch),
    Es = [E1, E2].

test(time_limit_not_reached, true(X == 1)) :-
    watch(0.001, seen),
    call_cleanup(limited(5, X = 1), unwatch).

test(state_from_seed, true(States == [0, 1, 1, 18446744073709551615])) :-
    Big is 2^64 + 1,
    maplist(lcg_state, [0, 1, Big, -1], States).

%   ((1 * 6364136223846793005 + 1442695040888963407) mod 2^64) >> 33
%   is 908834774.
test(draws_seed_0, true(Draws-State == [167951807, 218396424, 1299921937]-11166244414315200793)) :-
    lcg_state(0, S0),
    lcg_draws(3, S0, Draws, State).

test(draws_seed_1, true(Draws-State == [908834774, 1093944153, 1392341196]-11960119808228829710)) :-
    lcg_state(1, S0),
    lcg_draws(3, S0, Draws, State).

test(draw_one_at_a_time, true([D1, D2] == [908834774, 1093944153])) :-
    lcg_draw(1, S1, D1),
    lcg_draw(S1, _, D2).

test(random_below_seed_0, true(Values == [7, 1, 937, 0])) :-
    foldl([B, V, S0, S]>>random_below(B, S0, S, V), [10, 7, 1000, 2], Values, 0, _).

test(shuffle_seed_0, true(Items-State == [e, d, b, a, c]-7401132627792533940)) :-
    shuffle([a, b, c, d, e], 0, Items, State).

test(shuffle_seed_1, true(Items == [7, 8, 1, 6, 5, 0, 2, 9, 3, 4])) :-
    numlist(0, 9, Items0),
    shuffle(Items0, 1, Items, _).

%   Fewer than two items: no draw.
test(shuffle_short, true(R == [[]-7, [x]-7])) :-
    findall(Is-S, ( member(L, [[], [x]]), shuffle(L, 7, Is, S) ), R).

test(halves_round_trip, true(High-Low-Back == 2784682393-546810382-State)) :-
    State = 11960119808228829710,
    lcg_halves(State, High, Low),
    lcg_halves(Back, High, Low).

:- end_tests(kernel).
