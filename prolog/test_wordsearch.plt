/*  Tests of wordsearch.pl: the placement search and the filler.

    Run from the repository root:

        swipl -g run_tests -t halt prolog/test_wordsearch.plt

    The expected grids, places and counts are those of the Python engine
    (pybridge/wordsearch/search.py) for the same requests.
*/

:- begin_tests(wordsearch).

:- use_module(wordsearch).

chars_rows(Rows, Mask) :-
    maplist(string_chars, Rows, Mask).

all_directions([0, 1, 2, 3, 4, 5, 6, 7]).

test(text_in_text_out, true(A == "solved 2 0\n0 1 0\nAAB\n")) :-
    make_text(1, 3, [0], allow, 0, none, "AB\n", "", "AB", "...\n", A).

test(the_seed_puzzle, true(Row0-Places-Counts == "YWHWTYRAM"-
                           [p(6,1,5), p(1,0,1), p(0,8,4), p(3,8,1), p(1,2,1)]-(62-0))) :-
    maplist(string_chars, ["MATTHEW", "JOE", "MARY", "SARAH", "SALLY"], Words),
    string_chars("AEHJLMORSTWY", Letters),
    length(Mask, 9),
    maplist(=(['.','.','.','.','.','.','.','.','.']), Mask),
    all_directions(Ds),
    make(9, 9, Ds, allow, 1, none, Words, [], Letters, Mask,
         result(solved, [Row0|_], Places, N, B)),
    Counts = N-B.

test(an_exhausted_search, true(R == result(unsolvable, [], [], 452, 445))) :-
    maplist(string_chars, ["EYE", "YE"], Words),
    chars_rows(["...", "...", "..."], Mask),
    all_directions(Ds),
    make(3, 3, Ds, allow, 1, none, Words, [], ['E', 'Y'], Mask, R).

test(a_palindrome_reads_forwards, true(Places == [p(0, 0, 0)])) :-
    chars_rows(["...."], Mask),
    make(1, 4, [0, 4], allow, 1, none, [['A','N','N','A']], [], ['A','N'], Mask,
         result(solved, _, Places, _, _)).

test(a_palindrome_backwards_when_asked, true(Places == [p(0, 3, 4)])) :-
    chars_rows(["...."], Mask),
    make(1, 4, [4], allow, 1, none, [['A','N','N','A']], [], ['A','N'], Mask,
         result(solved, _, Places, _, _)).

test(overlap_forbidden, true(R == result(solved, ["CDAB"], [p(0,2,0), p(0,0,0)], 3, 1))) :-
    chars_rows(["...."], Mask),
    make(1, 4, [0], forbid, 2, none, [['A','B'], ['C','D']], [], ['X'], Mask, R).

test(a_reversed_word_inside_another, true(R == result(solved, ["BAAB"], [p(0,2,0), p(0,0,0)], 2, 0))) :-
    chars_rows(["...."], Mask),
    make(1, 4, [0], allow, 0, none, [['A','B'], ['B','A']], [], ['A','B'], Mask, R).

test(no_place_between_holes, true(R == result(unsolvable, [], [], 0, 1))) :-
    chars_rows([".#."], Mask),
    make(1, 3, [0], allow, 0, none, [['X','Y']], [], ['A','B'], Mask, R).

test(holes_take_no_letter, true(Middles == ['#', '#', '#'])) :-
    chars_rows([".#.", ".#.", ".#."], Mask),
    make(3, 3, [1], allow, 0, none, [['X','Y']], [], ['A','B'], Mask,
         result(solved, Grid, _, _, _)),
    maplist([Row, M]>>sub_atom(Row, 1, 1, _, M), Grid, Middles).

test(a_time_limit, true(Status == timeout)) :-
    maplist(string_chars, ["AB", "BA", "BC"], Words),
    chars_rows([".....", "#..#.", "....."], Mask),
    make(3, 5, [0, 1, 3, 4, 5], allow, 828166, 0.05,
         Words, [['B','B','A'], ['C','C','B']], ['A','B','C'], Mask,
         result(Status, _, _, _, _)).

:- end_tests(wordsearch).
