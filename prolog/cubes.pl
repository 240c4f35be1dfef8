/*  cubes: the first decisions of wdeg's search, enumerated, split a search
    into disjoint subproblems (cube and conquer).

    Specified in docs/search.md#cubes; this module mirrors
    pybridge/search/cubes.py step for step, so both engines find the same
    cubes in the same order and count the same nodes and dead ends.  It
    reuses wdeg.pl's state and order of words and arcs.pl's net, choice
    of site, placing and propagation: the split is a prefix of the search.

    No I/O here.
*/

:- module(cubes,
          [ split/7                     % +Strategy, +Seed, +Depth, +TimeLimit,
                                        % +SitesText, +GivensText, -Answer
          ]).

:- use_module(library(apply)).
:- use_module(library(error)).
:- use_module(library(lists)).
:- use_module(arcs, [dictionary/3, net/6, sites/2, choose/3, place/3, propagate/2]).
:- use_module(kernel, [count_node/0, counter/2, reset_counters/0, limited/2, scores/2]).
:- use_module(layout, [layout/5]).

%!  split(+Strategy, +Seed, +Depth:integer, +TimeLimit, +SitesText,
%!        +GivensText, -Answer:string) is det.
%
%   The cubes of the wdeg search of the grid (SitesText and GivensText as
%   for crossword:solve/8) from the dictionary of Strategy, wdeg(Key) or
%   wdeg(Key, ScoreKey), drawing from Seed (none or an integer >= 0),
%   Depth decisions deep.  Answer is "Status Nodes Backtracks\n" (Status
%   split, root when the propagated root fails, or timeout), then a line
%   per leaf in the search's order: "c" for a cube or "r" for a placement
%   that its propagation refuted, then the Site Word pairs of its path
%   (Word the word's index in its length's table), all space-separated.

split(Strategy, Seed, Depth, TimeLimit, SitesText, GivensText, Answer) :-
    must_be(nonneg, Depth),
    crossword:text_sites(SitesText, GivensText, Sites, Givens),
    reset_counters,
    strategy_words(Strategy, Key),
    (   catch(limited(TimeLimit, leaves(Key, Seed, Depth, Sites, Givens, Leaves)),
              time_limit_exceeded, fail)
    ->  (   Leaves == root
        ->  Status = root,
            Lines = []
        ;   Status = split,
            maplist(leaf_line, Leaves, Lines)
        )
    ;   Status = timeout,
        Lines = []
    ),
    counter(nodes, Nodes),
    counter(backtracks, Backtracks),
    format(string(Head), "~w ~d ~d~n", [Status, Nodes, Backtracks]),
    atomics_to_string([Head|Lines], Answer).

%   strategy_words(+Strategy, -Key): the dictionary's key; the words'
%   scores, if any, where wdeg's order of words reads them.
strategy_words(wdeg(Key), Key) :-
    b_setval(wdeg_scores, none).
strategy_words(wdeg(Key, ScoreKey), Key) :-
    scores(ScoreKey, Scores),
    b_setval(wdeg_scores, Scores).

%   leaves(+Key, +Seed, +Depth, +Sites, +Givens, -Leaves): the leaves
%   (cube(Path) or refuted(Path), Path last placement first), or root when
%   the propagated root fails.
leaves(Key, Seed, Depth, Sites, Givens, Leaves) :-
    layout(Sites, Givens, Board, Arcs, Crossings),
    dictionary(Key, Tables, Copies),
    net(Tables, Copies, Board, Arcs, Crossings, Net),
    (   Seed == none
    ->  First = 0
    ;   First = Seed
    ),
    wdeg:state(Net, First, State),
    sites(Net, All),
    (   propagate(All, Net)
    ->  findall(Leaf, leaf(Depth, All, State, [], Leaf), Leaves)
    ;   Leaves = root
    ).

%   leaf(+Depth, +All, +State, +Path, -Leaf): on backtracking, each leaf
%   below Path, Depth levels more: wdeg's choice of site among the open
%   ones and its order of words, each word a node, placed and propagated.
leaf(0, _, _, Path, cube(Path)) :-
    !.
leaf(Depth, All, State, Path, Leaf) :-
    State = st(Net, _, _, _, _),
    arg(2, Net, Open),
    include(wdeg:is_open(Open), All, Left),
    (   Left == []
    ->  Leaf = cube(Path)
    ;   choose(Left, Net, S),
        wdeg:order(S, State, Candidates),
        member(K, Candidates),
        count_node,
        Here = [S-K|Path],
        (   place(S, K, Net)
        ->  Depth1 is Depth - 1,
            leaf(Depth1, All, State, Here, Leaf)
        ;   Leaf = refuted(Here)
        )
    ).

leaf_line(cube(Path), Line) :-
    path_line("c", Path, Line).
leaf_line(refuted(Path), Line) :-
    path_line("r", Path, Line).

path_line(Kind, Path, Line) :-
    reverse(Path, Forward),
    foldl(pair_text, Forward, Kind, Text),
    string_concat(Text, "\n", Line).

pair_text(S-K, Text0, Text) :-
    format(string(Text), "~w ~d ~d", [Text0, S, K]).
