/*  Tests of layout.pl: the board and the crossings.

    Run from the repository root:

        swipl -g run_tests -t halt prolog/test_layout.plt

    The crossings and arcs are those of pybridge/layout.py for the same
    sites (tests/test_architecture.py checks the Python side).
*/

:- begin_tests(layout).

:- use_module(layout).

%   A 3x3 ring: 1-Across (0), 1-Down (1), 2-Down (2), 3-Across (3).  Site 0
%   meets the downs as the lower site, 3-Across meets them as the higher.
ring([ [0-0, 0-1, 0-2], [0-0, 1-0, 2-0], [0-2, 1-2, 2-2], [2-0, 2-1, 2-2] ]).

%   The open 3x3: 1-A, 1-D, 2-D, 3-D, 4-A, 5-A.
open3([ [0-0, 0-1, 0-2], [0-0, 1-0, 2-0], [0-1, 1-1, 2-1], [0-2, 1-2, 2-2],
        [1-0, 1-1, 1-2], [2-0, 2-1, 2-2] ]).

test(ring_crossings, true(Cs-N == [c(0, 0, 1, 0), c(0, 2, 2, 0),
                                   c(1, 2, 3, 0), c(2, 2, 3, 2)]-4)) :-
    ring(Sites),
    layout(Sites, [], _, Arcs, N),
    crossings(Arcs, Cs).

test(ring_arcs, true(Arcs == [ [x(0, 1, 0, 0), x(2, 2, 0, 1)],
                               [x(0, 0, 0, 0), x(2, 3, 0, 2)],
                               [x(0, 0, 2, 1), x(2, 3, 2, 3)],
                               [x(0, 1, 2, 2), x(2, 2, 2, 3)] ])) :-
    ring(Sites),
    layout(Sites, [], _, Arcs, _).

test(open3_arcs, true(Arcs == [ [x(0, 1, 0, 0), x(1, 2, 0, 1), x(2, 3, 0, 2)],
                                [x(0, 0, 0, 0), x(1, 4, 0, 3), x(2, 5, 0, 4)],
                                [x(0, 0, 1, 1), x(1, 4, 1, 5), x(2, 5, 1, 6)],
                                [x(0, 0, 2, 2), x(1, 4, 2, 7), x(2, 5, 2, 8)],
                                [x(0, 1, 1, 3), x(1, 2, 1, 5), x(2, 3, 1, 7)],
                                [x(0, 1, 2, 4), x(1, 2, 2, 6), x(2, 3, 2, 8)] ])) :-
    open3(Sites),
    layout(Sites, [], _, Arcs, 9).

%   Site 1 (a down) meets site 2 at its first cell and site 0 at its last:
%   by position here, its arcs are crossing 1, then crossing 0.
test(arcs_by_position_not_by_id,
     true(Arcs-Cs == [ [x(1, 1, 2, 0)], [x(0, 2, 1, 1), x(2, 0, 1, 0)], [x(1, 1, 0, 1)] ]-
                     [c(0, 1, 1, 2), c(1, 0, 2, 1)])) :-
    layout([[2-0, 2-1, 2-2], [0-1, 1-1, 2-1], [0-0, 0-1, 0-2]], [], _, Arcs, 2),
    crossings(Arcs, Cs).

%   Three sites through one cell: every two of them cross.
test(three_through_one_cell,
     true(Arcs == [ [x(0, 1, 0, 0), x(0, 2, 0, 1)],
                    [x(0, 0, 0, 0), x(0, 2, 0, 2)],
                    [x(0, 0, 0, 1), x(0, 1, 0, 2)] ])) :-
    layout([[0-0, 0-1], [0-0, 1-0], [0-0, 1-1]], [], Board, Arcs, 3),
    Board = [[A, _], [B, _], [C, _]],
    assertion((A == B, B == C)).

test(board_shares_cells) :-
    ring(Sites),
    layout(Sites, [], Board, _, _),
    Board = [[A, _, C], [A1, _, G], [C1, _, I], [G1, _, I1]],
    assertion((A == A1, C == C1, G == G1, I == I1)),
    term_variables(Board, Vars),
    assertion(length(Vars, 8)).

%   A predefined letter is bound where its cell is, in every site through
%   it; one outside every site is ignored.
test(board_givens, true(Board = [[a, B, c], [a, _, _], [c, _, _], [_, _, _]])) :-
    ring(Sites),
    layout(Sites, [g(0-0, a), g(0-2, c), g(9-9, z)], Board, _, _),
    assertion(var(B)).

%   The board reads cells as ground terms: integers will do.
test(integer_cells, true(Arcs-Board =@= [[x(1, 1, 0, 0)], [x(0, 0, 1, 0)]]-[[_, x], [x, _]])) :-
    layout([[1, 2], [2, 3]], [g(2, x)], Board, Arcs, 1).

test(conflicting_givens, fail) :-
    layout([[0-0, 0-1]], [g(0-0, a), g(0-0, b)], _, _, _).

test(no_crossings, true(Arcs-N == [[], []]-0)) :-
    layout([[0-0, 0-1], [2-0, 2-1]], [], _, Arcs, N).

test(empty, true(Board-Arcs-N == []-[]-0)) :-
    layout([], [], Board, Arcs, N).

:- end_tests(layout).
