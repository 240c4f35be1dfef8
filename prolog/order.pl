/*  order: the strategies given and sorted, each listed word placed in turn.

    The strategies are specified in docs/search.md#given and
    docs/search.md#sorted; this module mirrors pybridge/search/order.py
    step for step.

    A word is placed by unifying it with the board's variables of a site
    (layout.pl builds the board), so a crossing letter is checked for
    free.  The counters are kernel.pl's.

    No I/O here.
*/

:- module(order,
          [ order_search/3,             % +Strategy, +Words, +Board
            place_in_order/2,           % +Words, +Sites
            length_frequency_order/2    % +Lists, -Sorted
          ]).

%   Arithmetic compiled inline: the search is mostly counting and
%   comparing.
:- set_prolog_flag(optimise, true).

:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(library(assoc)).
:- use_module(library(pairs)).
:- use_module(kernel, [count_node/0, count_backtrack/0]).

%   This family, as crossword.pl knows it (docs/search.md#adding-a-strategy).
:- multifile crossword:family/2, crossword:family_strategy/3, crossword:family_search/7.

crossword:family(order, 1).
crossword:family_strategy(given,  order, false).
crossword:family_strategy(sorted, order, false).
crossword:family_search(order, Strategy, _, Words, Board, _, _) :-
    order_search(Strategy, Words, Board).

%!  order_search(+Strategy, +Words:list(list(char)), +Board:list(list(var)))
%!      is nondet.
%
%   Bind every site of Board (see layout:layout/5) to one of Words, each
%   word used exactly once; Strategy is given or sorted.  Succeeds once
%   per fill.
%
%   ?- Board = [[A, _], [A, _]],          % two sites crossing at their first cell
%      kernel:reset_counters,
%      findall(Board, order_search(given, [[a, b], [a, c]], Board), Fills).
%   Fills = [[[a, b], [a, c]], [[a, c], [a, b]]].

order_search(given, Words, Board) :-
    numbered_sites(Board, Sites),
    place_in_order(Words, Sites).
order_search(sorted, Words0, Board) :-
    length_frequency_order(Words0, Words),
    length_frequency_order(Board, Board1),
    numbered_sites(Board1, Sites),
    place_in_order(Words, Sites).

%!  length_frequency_order(+Lists:list(list), -Sorted:list(list)) is det.
%
%   Lists ordered by how often their length occurs (rare first), ties to
%   the longer length, stable otherwise (keysort/2 is stable).
%
%   ?- length_frequency_order([[a], [b, c], [d], [e, f, g]], Sorted).
%   Sorted = [[e, f, g], [b, c], [a], [d]].

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

%!  place_in_order(+Words:list(list(char)), +Sites:list(compound)) is nondet.
%
%   Each word in turn takes one of the remaining Sites, tried in order.  A
%   word equal to an earlier word only takes a site after the one its
%   previous copy took, so every fill is found once.  A site is s(P, L,
%   Vars): its place P (from 0) in the order the sites came, its length and
%   its variables.
%
%   ?- kernel:reset_counters,
%      place_in_order([[a, b]], [s(0, 2, [x, y]), s(1, 2, [a, B])]).
%   B = b.

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

%   fill(+Vars, +Chars): a node when the word fits, else a dead end.
fill(Vars, Chars) :-
    (   Vars = Chars
    ->  count_node
    ;   count_backtrack,
        fail
    ).
