/*  layout: the board and the crossings of a puzzle, built once per search.

    The twin of pybridge/layout.py (its crossings and arcs; the sites
    themselves come from Python, as lists of cells in site order); the
    layout is specified in docs/search.md#layout.

    The board: one logical variable per open cell, shared by the sites
    through it, so placing a word is unification and a crossing letter is
    checked for free; the predefined letters are bound already.

    The crossings, in one order that every strategy reads: a crossing is
    two sites A < B meeting at position I of A and J of B; the crossings
    are numbered (their id, from 0) in the order of (A, I, B, J) -- which is
    also the order of first meeting, site by site, each site's crossings
    by position.  Each site lists its own crossings as x(P, T, Q, Id),
    position P here is position Q of site T, in the order of (P, T, Q).

    No I/O here.
*/

:- module(layout,
          [ layout/5,                   % +Sites, +Givens, -Board, -Arcs, -Crossings
            crossings/2                 % +Arcs, -Crossings
          ]).

:- set_prolog_flag(optimise, true).

:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(library(pairs)).

%!  layout(+Sites:list(list), +Givens:list(compound), -Board:list(list(var)),
%!         -Arcs:list(list(compound)), -Crossings:integer) is semidet.
%
%   Sites are the sites' cells in site order (a cell is any ground term
%   that equals another exactly when the cells are the same: Row-Col, or
%   one integer); Givens are g(Cell, Char) terms.  Board holds each site's
%   variables, in site order, the predefined letters bound (a given
%   outside every site is ignored).  Arcs holds each site's crossings,
%   x(P, T, Q, Id) (see the header); Crossings is how many there are.
%   Fails if two predefined letters of one cell differ.
%
%   One keysort of every cell occurrence finds both the shared cells and
%   the crossings (an assoc of the cells costs more).
%
%   ?- layout([[0-0, 0-1], [0-0, 1-0]], [g(0-1, b)], Board, Arcs, N).
%   Board = [[_A, b], [_A, _]],
%   Arcs = [[x(0, 1, 0, 0)], [x(0, 0, 0, 0)]],
%   N = 1.

layout(SiteCells, Givens, Board, Arcs, Crossings) :-
    foldl(numbered, SiteCells, Sites, 0, _),
    maplist(given_entry, Givens, GivenEntries),
    foldl(site_entries, Sites, Board, Entries, GivenEntries),
    keysort(Entries, Sorted),
    shared_cells(Sorted, Pairs, []),
    msort(Pairs, SortedPairs),
    crossing_ids(SortedPairs, 0, Crossings),
    group_pairs_by_key(SortedPairs, Grouped),
    site_arcs(Sites, Grouped, Arcs).

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
%   (and its predefined letter) share one value; for every two sites I
%   and T through it, I-x(P, T, Q, Id) and T-x(Q, I, P, Id), Id one
%   variable for both (crossing_ids/3 binds it).  Most cells belong to one
%   site and have no letter: they are passed over.
shared_cells([], Tail, Tail).
shared_cells([Cell-O|Es], Pairs, Tail) :-
    (   Es = [Next-O1|Es1],
        Next == Cell
    ->  (   O = v(I, P, V),                    % the usual crossing: two sites
            O1 = v(T, Q, V1),
            I \== T,
            \+ ( Es1 = [Other-_|_], Other == Cell )
        ->  V = V1,
            Pairs = [I-x(P, T, Q, Id), T-x(Q, I, P, Id)|Pairs1],
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

%   cell_links(+Occurrences, -Pairs, ?Tail): a cell with a letter or
%   with more than two sites: every two sites through it, both ways.
cell_links(Occurrences, Pairs, Tail) :-
    same_value(Occurrences, _),
    cell_pairs(Occurrences, Pairs, Tail).

same_value([], _).
same_value([v(_, _, V)|Os], V) :- same_value(Os, V).
same_value([g(V)|Os], V) :- same_value(Os, V).

cell_pairs([], Tail, Tail).
cell_pairs([O|Os], Pairs, Tail) :-
    foldl(pair_with(O), Os, Pairs, Pairs1),
    cell_pairs(Os, Pairs1, Tail).

pair_with(v(I, P, _), v(T, Q, _), [I-x(P, T, Q, Id), T-x(Q, I, P, Id)|Tail], Tail) :-
    I \== T,
    !.
pair_with(_, _, Tail, Tail).

%   crossing_ids(+SortedPairs, +Id0, -Id): number the crossings.  Each
%   appears twice, I-x(P, T, Q, Id) with I < T once: those, in sorted
%   order, are the crossings in the order of (A, I, B, J).
crossing_ids([], N, N).
crossing_ids([I-x(_, T, _, Id)|Pairs], N0, N) :-
    (   I < T
    ->  Id = N0,
        N1 is N0 + 1
    ;   N1 = N0
    ),
    crossing_ids(Pairs, N1, N).

%   site_arcs(+Sites, +Grouped, -Arcs): Grouped (by site, ascending)
%   without the keys, with an empty list for each site that crosses none.
site_arcs([], _, []).
site_arcs([I-_|Sites], Grouped, [Xs|Arcs]) :-
    (   Grouped = [I-Xs0|Rest]
    ->  Xs = Xs0
    ;   Xs = [],
        Rest = Grouped
    ),
    site_arcs(Sites, Rest, Arcs).

%!  crossings(+Arcs:list(list(compound)), -Crossings:list(compound)) is det.
%
%   The crossings of Arcs (see layout/5), as c(A, I, B, J) in the order
%   of their ids.
%
%   ?- layout([[0-0, 0-1], [0-0, 1-0]], [], _, Arcs, _), crossings(Arcs, Cs).
%   Arcs = [[x(0, 1, 0, 0)], [x(0, 0, 0, 0)]],
%   Cs = [c(0, 0, 1, 0)].

crossings(Arcs, Crossings) :-
    foldl(site_crossings, Arcs, Keyed, 0, _),
    append(Keyed, Pairs),
    keysort(Pairs, Sorted),
    pairs_values(Sorted, Crossings).

site_crossings(Xs, Keyed, A, A1) :-
    A1 is A + 1,
    findall(Id-c(A, I, B, J), ( member(x(I, B, J, Id), Xs), A < B ), Keyed).
