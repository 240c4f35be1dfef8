/*  wordsearch: make a word search puzzle - place every listed word in a
    grid of letters, then fill the other cells so that no listed word, and
    no word to avoid, can be read anywhere else.

    The twin of pybridge/wordsearch/search.py, step for step: the same
    places tried in the same order, the same draws from the kernel's LCG,
    the same node and backtrack counts (kernel.pl).  The rules are in
    docs/wordsearch.md (the search, windows, the filler, restarts).

    The grid is one term b(C0, C1, ...) of cells with a border of holes:
    cell (R, C) is index (R + 1) * (Cols + 1) + C + 1, argument index + 1.
    A hole is the atom '#'; a free cell an unbound variable, so a word is
    placed by unification and unplaced by backtracking.  Where a word lies
    is recorded in the term placed(P0, P1, ...): an unbound argument until
    word I is placed, then p(First, Direction, Cells) with Cells an ordered
    set.  The generator's state and the dead ends of the current run
    live in global variables, as in the Python engine: a draw is not taken
    back by backtracking.

    No I/O: make_text/11 takes strings and gives one back.
*/

:- module(wordsearch,
          [ make_text/11,               % +Rows, +Cols, +Directions, +Overlap,
                                        % +Seed, +TimeLimit, +WordsText,
                                        % +AvoidText, +LettersText,
                                        % +MaskText, -Answer
            make/11                     % +Rows, +Cols, +Directions, +Overlap,
                                        % +Seed, +TimeLimit, +Words, +Avoid,
                                        % +Letters, +Mask, -Result
          ]).

:- set_prolog_flag(optimise, true).

:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(library(ordsets)).
:- use_module(library(pairs)).
:- use_module(kernel, [ reset_counters/0, count_node/0, count_backtrack/0,
                        counter/2, limited/2, lcg_state/2, random_below/4,
                        lcg_halves/3 ]).

%!  direction(?Index, ?RowStep, ?ColStep) is nondet.
%
%   The eight directions in the order of pybridge.wordsearch.model's
%   DIRECTIONS: E, S, SE, NE, then W, N, NW, SW (Index + 4 runs against
%   Index).  The first four are also the four lines a window lies along.

direction(0, 0, 1).
direction(1, 1, 0).
direction(2, 1, 1).
direction(3, -1, 1).
direction(4, 0, -1).
direction(5, -1, 0).
direction(6, -1, -1).
direction(7, 1, -1).

                 /*******************************
                 *          ENTRY POINTS        *
                 *******************************/

%!  make_text(+Rows, +Cols, +Directions, +Overlap, +Seed, +TimeLimit,
%!            +WordsText, +AvoidText, +LettersText, +MaskText,
%!            -Answer) is det.
%
%   make/11 for the Python bridge: the words and the words to avoid
%   arrive one per line (each line ended by a newline), the filler's
%   letters as one string, the mask as its rows, each ended by a newline
%   ('.' a cell, '#' a hole).  These strings are data, never read as
%   terms.  Directions is a list of direction indices, Overlap allow or
%   forbid, Seed an integer, TimeLimit none or seconds.  Answer is
%   "Status Nodes Backtracks\n", then when solved one line "Row Col
%   Direction" per word in listed order and the rows of the grid.
%
%   ?- make_text(1, 3, [0], allow, 0, none, "AB\n", "", "AB", "...\n", A).
%   A = "solved 2 0\n0 0 0\nABA\n".

make_text(Rows, Cols, Directions, Overlap, Seed, TimeLimit,
          WordsText, AvoidText, LettersText, MaskText, Answer) :-
    text_words(WordsText, Words),
    text_words(AvoidText, Avoid),
    string_chars(LettersText, Letters),
    text_words(MaskText, Mask),
    make(Rows, Cols, Directions, Overlap, Seed, TimeLimit,
         Words, Avoid, Letters, Mask,
         result(Status, Grid, Places, Nodes, Backtracks)),
    format(string(Head), "~w ~d ~d~n", [Status, Nodes, Backtracks]),
    foldl(place_line, Places, PlaceLines, []),
    foldl(row_line, Grid, RowLines, []),
    append([Head|PlaceLines], RowLines, Parts),
    atomics_to_string(Parts, Answer).

text_words(Text, Words) :-
    split_string(Text, "\n", "", Parts),
    once(append(Lines, [_], Parts)),
    maplist(string_chars, Lines, Words).

place_line(p(R, C, D), [Line|Tail], Tail) :-
    format(string(Line), "~d ~d ~d~n", [R, C, D]).

row_line(Row, [Row, "\n"|Tail], Tail).

%!  make(+Rows, +Cols, +Directions, +Overlap, +Seed, +TimeLimit, +Words,
%!       +Avoid, +Letters, +Mask, -Result) is det.
%
%   Words, Avoid and Letters are lists of chars (Letters sorted, distinct),
%   Mask a list of rows, each a list of '.' and '#'.  Result is
%   result(Status, Grid, Places, Nodes, Backtracks): Status solved,
%   unsolvable or timeout; Grid the rows as strings and Places a list of
%   p(Row, Col, Direction), one per word in listed order, when solved
%   (else both []).
%
%   ?- make(1, 4, [0], allow, 0, none, [[a,b],[b,a]], [], [a,b],
%           [['.','.','.','.']], R).
%   R = result(solved, ["baab"], [p(0, 2, 0), p(0, 0, 0)], 2, 0).

make(Rows, Cols, Directions, Overlap, Seed, TimeLimit,
     Words, Avoid, Letters, Mask, result(Status, Grid, Places, Nodes, Backtracks)) :-
    reset_counters,
    lcg_state(Seed, State),
    set_lcg(State),
    Search = search(Rows, Cols, Directions, Overlap, Words, Avoid, Letters, Mask, Found),
    (   catch(limited(TimeLimit, Search), time_limit_exceeded, fail)
    ->  (   Found = found(Grid, Places)
        ->  Status = solved
        ;   Status = unsolvable, Grid = [], Places = []
        )
    ;   Status = timeout, Grid = [], Places = []
    ),
    counter(nodes, Nodes),
    counter(backtracks, Backtracks).

%   search(...): Found is found(Grid, Places) or none.
search(Rows, Cols, Directions, Overlap, Words, Avoid, Letters, Mask, Found) :-
    tables(Rows, Cols, Directions, Overlap, Words, Avoid, Letters, Mask, T),
    runs(T, 10, Found).

                 /*******************************
                 *            TABLES            *
                 *******************************/

%   The tables term, read by the whole search:
%   t(Geometry, Empty, Words, Order, Places, Steps, Skip, Overlap,
%     Forbidden, Factors, Reach, Containers, Letters)
%   Geometry   g(Rows, Cols, Width, Size)
%   Empty      the empty board's '#' cells, as a list of indices
%   Words      words(W0, W1, ...), each a list of chars
%   Order      the word indices, longest first, ties in listed order
%   Places     a list Length-places(P1, ...), each P = First-Direction
%   Steps      steps(S0, ..., S7) by direction index
%   Skip       the direction indices a palindrome does not take
%   Forbidden  a trie: string (chars) -> f(ListedIndices, Banned)
%   Factors    a trie of every factor of a forbidden string
%   Reach      the length of the longest forbidden string, minus 1
%   Containers containers(C0, ...): the words that hold word I (or its
%              reverse), I among them

t_geometry(t(G, _, _, _, _, _, _, _, _, _, _, _, _), G).
t_words(t(_, _, W, _, _, _, _, _, _, _, _, _, _), W).
t_steps(t(_, _, _, _, _, S, _, _, _, _, _, _, _), S).

tables(Rows, Cols, Directions, Overlap, WordList, Avoid, Letters, Mask,
       t(G, Holes, Words, Order, Places, Steps, Skip, Overlap,
         Forbidden, Factors, Reach, Containers, Letters)) :-
    Width is Cols + 1,
    Size is (Rows + 2) * Width + 1,
    G = g(Rows, Cols, Width, Size),
    holes(G, Mask, Holes),
    Words =.. [words|WordList],
    order(WordList, Order),
    findall(S, ( between(0, 7, D), step(Width, D, S) ), StepList),
    Steps =.. [steps|StepList],
    findall(D, ( member(D, Directions), D >= 4,
                 Opposite is D - 4, memberchk(Opposite, Directions) ), Skip),
    empty_board(G, Holes, Board),
    places(G, Board, Steps, Directions, WordList, Places),
    forbidden(WordList, Avoid, Forbidden, Factors, Longest),
    Reach is Longest - 1,
    containers(WordList, Containers).

step(Width, D, S) :-
    direction(D, DR, DC),
    S is DR * Width + DC.

%   holes(+G, +Mask, -Holes): the '#' cells: the border and the mask's holes.
holes(g(_, Cols, Width, Size), Mask, Holes) :-
    findall(I, ( nth0(R, Mask, Row), nth0(C, Row, '#'), I is (R + 1) * Width + C + 1 ), InMask),
    Last is Size - 1,
    findall(I, ( between(0, Last, I), border(I, Width, Cols, Size) ), Border),
    append(InMask, Border, Holes0),
    sort(Holes0, Holes).

border(I, Width, _, Size) :-
    (   I < Width + 1
    ;   I >= Size - Width - 1
    ;   (I - 1) mod Width =:= Width - 1
    ),
    !.

empty_board(g(_, _, _, Size), Holes, Board) :-
    functor(Board, b, Size),
    bind_holes(Holes, Board).

bind_holes([], _).
bind_holes([I|Is], Board) :-
    A is I + 1,
    arg(A, Board, '#'),
    bind_holes(Is, Board).

order(Words, Order) :-
    findall(Key-I, ( nth0(I, Words, W), length(W, L), Key is -L ), Pairs),
    keysort(Pairs, Sorted),
    pairs_values(Sorted, Order).

%   places(+G, +Board, +Steps, +Directions, +Words, -Places): for each
%   length of a word, every place of a word that long, by first cell then
%   by direction.
places(G, Board, Steps, Directions, Words, Places) :-
    findall(D-Run, ( member(D, Directions), runs(G, Board, Steps, D, Run) ), Runs),
    findall(L, ( member(W, Words), length(W, L) ), Ls0),
    sort(Ls0, Ls),
    maplist(length_places(G, Runs), Ls, Places).

length_places(g(_, _, _, Size), Runs, L, L-Term) :-
    Last is Size - 1,
    findall(I-D, ( member(D-Run, Runs), between(0, Last, I),
                   A is I + 1, arg(A, Run, N), N >= L ), Pairs0),
    msort(Pairs0, Pairs),
    Term =.. [places|Pairs].

%   runs(+G, +Board, +Steps, +D, -Run): Run's argument I + 1 is how many
%   usable cells start at cell I in direction D.
runs(g(_, _, _, Size), Board, Steps, D, Run) :-
    functor(Run, run, Size),
    A0 is D + 1,
    arg(A0, Steps, Step),
    Last is Size - 1,
    (   Step > 0
    ->  numlist_down(Last, 0, Cells)
    ;   numlist(0, Last, Cells)
    ),
    forall(member(I, Cells), set_run(I, Step, Board, Run)).

numlist_down(High, Low, List) :-
    numlist(Low, High, Up),
    reverse(Up, List).

set_run(I, Step, Board, Run) :-
    A is I + 1,
    arg(A, Board, Cell),
    (   Cell == '#'
    ->  nb_setarg(A, Run, 0)
    ;   Next is A + Step,
        arg(Next, Run, N0),
        N is N0 + 1,
        nb_setarg(A, Run, N)
    ).

%   forbidden(+Words, +Avoid, -Forbidden, -Factors, -Longest)
forbidden(Words, Avoid, Forbidden, Factors, Longest) :-
    findall(Text-I, ( nth0(I, Words, W), reverse(W, R), sort([W, R], Texts),
                      member(Text, Texts) ), Listed),
    findall(Text, ( member(W, Avoid), reverse(W, R), member(Text, [W, R]) ), Banned0),
    sort(Banned0, Banned),
    findall(Text, member(Text-_, Listed), Texts0),
    append(Texts0, Banned, Texts1),
    sort(Texts1, Texts),
    trie_new(Forbidden),
    trie_new(Factors),
    forall(member(Text, Texts), add_forbidden(Text, Listed, Banned, Forbidden, Factors)),
    findall(L, ( member(Text, Texts), length(Text, L) ), Ls),
    max_list([0|Ls], Longest).

add_forbidden(Text, Listed, Banned, Forbidden, Factors) :-
    findall(I, member(Text-I, Listed), Is0),
    sort(Is0, Is),
    (   memberchk(Text, Banned) -> B = true ; B = false ),
    trie_insert(Forbidden, Text, f(Is, B)),
    forall(factor(Text, Part), add_key(Factors, Part)).

add_key(Trie, Key) :-
    (   trie_insert(Trie, Key, true) -> true ; true ).

factor(Text, Part) :-
    append(_, Suffix, Text),
    append(Part, _, Suffix),
    Part \== [].

containers(Words, Containers) :-
    maplist(string_chars_, Words, Strings),
    findall(C, ( member(S, Strings), holders(S, Strings, C) ), List),
    Containers =.. [containers|List].

string_chars_(Chars, String) :-
    string_chars(String, Chars).

holders(S, Strings, Holders) :-
    string_length(S, L),
    string_chars(S, Cs),
    reverse(Cs, Rs),
    string_chars(R, Rs),
    findall(J, ( nth0(J, Strings, Other), string_length(Other, LO), LO >= L,
                 ( sub_string(Other, _, _, _, S) -> true ; sub_string(Other, _, _, _, R) ) ),
            Holders).

                 /*******************************
                 *             RUNS             *
                 *******************************/

%!  runs(+T, +Limit, -Found) is det.
%
%   Runs of the placement search from the root, each with a limit of
%   dead ends 3/2 of the last (rounded down), until one finds a puzzle (Found
%   = found(Grid, Places)) or ends within its limit (Found = none).

runs(T, Limit, Found) :-
    nb_setval(wordsearch_run_dead_ends, 0),
    catch(run(T, Limit, Found), wordsearch_restart, true),
    (   var(Found)
    ->  Limit1 is Limit * 3 // 2,
        runs(T, Limit1, Found)
    ;   true
    ).

run(T, Limit, Found) :-
    T = t(G, Holes, Words, Order, _, _, _, _, _, _, _, _, _),
    empty_board(G, Holes, Board),
    functor(Words, _, N),
    functor(Placed, placed, N),
    (   place_words(Order, T, Limit, Board, Placed, [])
    ->  answer(G, Board, Placed, Found)
    ;   Found = none
    ).

answer(g(Rows, Cols, Width, _), Board, Placed, found(Grid, Places)) :-
    R1 is Rows - 1,
    C1 is Cols - 1,
    findall(Row, ( between(0, R1, R),
                   findall(Ch, ( between(0, C1, C), A is (R + 1) * Width + C + 2,
                                 arg(A, Board, Ch) ), Chs),
                   string_chars(Row, Chs) ), Grid),
    Placed =.. [_|Ps],
    maplist(place_of(Width), Ps, Places).

place_of(Width, p(First, D, _), p(R, C, D)) :-
    R0 is (First - 1) // Width,
    R is R0 - 1,
    C is (First - 1) mod Width.

                 /*******************************
                 *       THE PLACEMENT SEARCH   *
                 *******************************/

%   place_words(+Order, +T, +Limit, !Board, !Placed, +Pending): each word
%   of Order at a place, then the filler (docs/wordsearch.md#the-search).
place_words([], T, Limit, Board, _, _) :-
    fill(T, Limit, Board).
place_words([W|Ws], T, Limit, Board, Placed, Pending) :-
    T = t(_, _, Words, _, Places, _, _, _, _, _, _, _, _),
    A is W + 1,
    arg(A, Words, Word),
    length(Word, L),
    memberchk(L-Term, Places),
    functor(Term, _, Count),
    (   Count > 0 -> draw_below(Count, Start) ; Start = 0 ),
    (   Last is Count - 1,
        between(0, Last, Tried),
        K is (Start + Tried) mod Count + 1,
        arg(K, Term, First-D),
        place(W, Word, L, First, D, T, Board, Placed, Pending, Pending1),
        count_node,
        place_words(Ws, T, Limit, Board, Placed, Pending1)
    ;   run_dead_end(Limit),
        fail
    ).

%   run_dead_end(+Limit): count a dead end; past the run's limit, end the run.
run_dead_end(Limit) :-
    count_backtrack,
    nb_getval(wordsearch_run_dead_ends, N0),
    N is N0 + 1,
    nb_setval(wordsearch_run_dead_ends, N),
    (   N > Limit
    ->  throw(wordsearch_restart)
    ;   true
    ).

%   place(+W, +Word, +L, +First, +D, +T, !Board, !Placed, +Pending0,
%         -Pending): word W at First in direction D, if it passes every
%   check: not a palindrome's second reading, letters that agree (none
%   shared when overlaps are forbidden), not inside a placed word nor
%   around one, and windows that read no word they may not.
place(W, Word, L, First, D, T, Board, Placed, Pending0, Pending) :-
    T = t(_, _, _, _, _, Steps, Skip, Overlap, _, _, _, _, _),
    \+ ( memberchk(D, Skip), reverse(Word, Word) ),
    A is D + 1,
    arg(A, Steps, Step),
    write_word(Word, First, Step, Overlap, Board, Cells, New),
    sort(Cells, Taken),
    length(New, Written),
    (   L - Written >= 2
    ->  \+ nested(Taken, Placed)
    ;   true
    ),
    PA is W + 1,
    arg(PA, Placed, p(First, D, Taken)),
    windows_ok(New, T, Board, Placed, Pending0, Pending).

%   write_word(+Word, +Cell, +Step, +Overlap, !Board, -Cells, -New):
%   unify the word's cells with its letters; New the cells that were free.
write_word([], _, _, _, _, [], []).
write_word([Ch|Chs], Cell, Step, Overlap, Board, [Cell|Cells], New) :-
    A is Cell + 1,
    arg(A, Board, V),
    (   var(V)
    ->  V = Ch,
        New = [Cell|New1]
    ;   Overlap == allow,
        V == Ch,
        New = New1
    ),
    Next is Cell + Step,
    write_word(Chs, Next, Step, Overlap, Board, Cells, New1).

nested(Taken, Placed) :-
    arg(_, Placed, P),
    nonvar(P),
    P = p(_, _, Other),
    (   ord_subset(Taken, Other)
    ->  true
    ;   ord_subset(Other, Taken)
    ).

                 /*******************************
                 *            WINDOWS           *
                 *******************************/

%   windows_ok(+New, +T, +Board, +Placed, +Pending0, -Pending): the
%   windows that New completed read no word to avoid; each that reads a
%   listed word joins the pending ones; every pending window is then
%   explained by a placed word (dropped), may still be (kept), or fails.
windows_ok(New, T, Board, Placed, Pending0, Pending) :-
    T = t(_, _, _, _, _, Steps, _, _, Forbidden, _, _, Containers, _),
    findall(w(First, Line, Len, Text),
            ( member(Cell, New), occurrence(Cell, T, Board, First, Line, Len, Text) ),
            Found0),
    sort(Found0, Found),
    found_pending(Found, Steps, Forbidden, Fresh),
    append(Pending0, Fresh, All),
    still_pending(All, Containers, Placed, Pending).

found_pending([], _, _, []).
found_pending([w(First, Line, Len, Text)|Ws], Steps, Forbidden, Pending) :-
    trie_lookup(Forbidden, Text, f(Listed, Banned)),
    Banned == false,
    A is Line + 1,
    arg(A, Steps, Step),
    window_cells(Len, First, Step, Cells0),
    sort(Cells0, Cells),
    foldl(pending_entry(Cells), Listed, Pending, Tail),
    found_pending(Ws, Steps, Forbidden, Tail).

pending_entry(Cells, Word, [Cells-Word|Tail], Tail).

window_cells(0, _, _, []) :- !.
window_cells(N, Cell, Step, [Cell|Cells]) :-
    N1 is N - 1,
    Next is Cell + Step,
    window_cells(N1, Next, Step, Cells).

still_pending([], _, _, []).
still_pending([Cells-Word|Es], Containers, Placed, Pending) :-
    A is Word + 1,
    arg(A, Containers, Holders),
    explained(Holders, Cells, Placed, false, State),
    (   State == yes
    ->  Pending = Pending1
    ;   State == waiting
    ->  Pending = [Cells-Word|Pending1]
    ),
    still_pending(Es, Containers, Placed, Pending1).

%   explained(+Holders, +Cells, +Placed, +Waiting, -State): yes if a
%   placed holder covers the window, else waiting if a holder is not
%   placed yet; fails if neither.
explained([], _, _, Waiting, waiting) :-
    Waiting == true.
explained([H|Hs], Cells, Placed, Waiting, State) :-
    A is H + 1,
    arg(A, Placed, P),
    (   var(P)
    ->  explained(Hs, Cells, Placed, true, State)
    ;   P = p(_, _, Taken),
        ord_subset(Cells, Taken)
    ->  State = yes
    ;   explained(Hs, Cells, Placed, Waiting, State)
    ).

%   occurrence(+Cell, +T, +Board, -First, -Line, -Len, -Text) is nondet:
%   a forbidden string Text read along Line (0-3) by the window of Len
%   cells from First through Cell, every cell of it holding a letter.
occurrence(Cell, T, Board, First, Line, Len, Text) :-
    T = t(_, _, _, _, _, Steps, _, _, Forbidden, Factors, Reach, _, _),
    A is Cell + 1,
    arg(A, Board, Middle),
    trie_lookup(Factors, [Middle], _),
    between(0, 3, Line),
    SA is Line + 1,
    arg(SA, Steps, Step),
    Back is -Step,
    letters(Reach, Cell, Back, Board, Before),
    letters(Reach, Cell, Step, Board, After),
    left_part(Before, [Middle], 0, Factors, Left, Used),
    right_part(After, Left, Factors, Text),
    trie_lookup(Forbidden, Text, _),
    First is Cell - Used * Step,
    length(Text, Len).

%   letters(+Most, +Cell, +Step, +Board, -Letters): the letters after Cell
%   along Step, nearest first, up to the first cell without one, at most Most.
letters(Most, Cell, Step, Board, Letters) :-
    (   Most > 0,
        Next is Cell + Step,
        A is Next + 1,
        arg(A, Board, Ch),
        nonvar(Ch),
        Ch \== '#'
    ->  Letters = [Ch|Rest],
        Most1 is Most - 1,
        letters(Most1, Next, Step, Board, Rest)
    ;   Letters = []
    ).

%   left_part(+Before, +Left0, +Used0, -Left, -Used): Left0, then with
%   one more letter before it, while it is a factor (Left0 is one).
left_part(_, Left, Used, _, Left, Used).
left_part([B|Bs], Left0, Used0, Factors, Left, Used) :-
    Left1 = [B|Left0],
    trie_lookup(Factors, Left1, _),
    Used1 is Used0 + 1,
    left_part(Bs, Left1, Used1, Factors, Left, Used).

%   right_part(+After, +Left, +Factors, -Text): Left, then Left with more
%   letters of After, while a factor.
right_part(_, Left, _, Left).
right_part(After, Left, Factors, Text) :-
    append(Left, Extra, Text),
    prefix_of(After, Extra),
    Extra \== [],
    (   trie_lookup(Factors, Text, _)
    ->  true
    ;   !, fail
    ).

prefix_of(_, []).
prefix_of([X|Xs], [X|Ys]) :-
    prefix_of(Xs, Ys).

                 /*******************************
                 *           THE FILLER         *
                 *******************************/

%   fill(+T, !Board): every free cell, in index order, takes a letter
%   such that no window through it reads a forbidden string.
fill(T, Limit, Board) :-
    t_geometry(T, g(_, _, _, Size)),
    Last is Size - 1,
    findall(I, ( between(0, Last, I), A is I + 1, arg(A, Board, V), var(V) ), Free),
    T = t(_, _, _, _, _, _, _, _, _, _, _, _, Letters),
    Alphabet =.. [letters|Letters],
    functor(Alphabet, _, Count),
    fill_cells(Free, Alphabet, Count, T, Limit, Board).

fill_cells([], _, _, _, _, _).
fill_cells([Cell|Cells], Alphabet, Count, T, Limit, Board) :-
    draw_below(Count, Start),
    A is Cell + 1,
    arg(A, Board, V),
    (   Last is Count - 1,
        between(0, Last, Tried),
        K is (Start + Tried) mod Count + 1,
        arg(K, Alphabet, V),
        \+ occurrence(Cell, T, Board, _, _, _, _),
        count_node,
        fill_cells(Cells, Alphabet, Count, T, Limit, Board)
    ;   run_dead_end(Limit),
        fail
    ).

                 /*******************************
                 *             DRAWS            *
                 *******************************/

set_lcg(State) :-
    lcg_halves(State, High, Low),
    nb_setval(wordsearch_lcg, s(High, Low)).

%   draw_below(+N, -Value): the next draw of the run's generator, mod N.
draw_below(N, Value) :-
    nb_getval(wordsearch_lcg, s(High, Low)),
    lcg_halves(State0, High, Low),
    random_below(N, State0, State, Value),
    set_lcg(State).
