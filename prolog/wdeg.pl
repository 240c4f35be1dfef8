/*  wdeg: the fast strategy for filling a grid from a dictionary.

    The strategy is specified in docs/search.md#wdeg; this module mirrors
    pybridge/search/wdeg.py step for step, so both engines make the same
    choices in the same order and count the same nodes and dead ends.
    What follows in the comments is how, not what.

    The dictionary, the domains (bitsets over its words), their
    propagation, placing a word and the choice of site are arcs.pl's,
    shared with valued.pl.  Each of the two searches that take turns
    (docs/search.md#two-streams) has its own state, one term holding its
    net (arcs.pl) and what wdeg adds: the words the choices put change
    with backtrackable setarg/3 and so come back for free on backtracking;
    what the Python engine never undoes (the LCG state, the node limit,
    the words placed in the current run and the phase) changes with
    nb_setarg/3.  The sites' crossings and their ids are layout.pl's; the
    counters (which the two searches share) and the LCG are kernel.pl's.

    No I/O here.
*/

:- module(wdeg,
          [ wdeg_search/5,              % +Key, +Seed, +Board, +Arcs, +Crossings
            wdeg_search/6,              % +Key, +ScoreKey, +Seed, +Board, +Arcs, +Crossings
            wdeg_search/7,              % +Key, +ScoreKey, +WeightsKey, +Seed, +Board, +Arcs,
                                        % +Crossings
            load_weights/2,             % +WeightsKey, +Weights
            learned_weights/1           % -Text
          ]).

:- use_module(library(apply)).
:- use_module(library(error), [must_be/2, domain_error/2]).
:- use_module(library(lists)).
:- use_module(library(pairs)).
:- use_module(arcs,
              [ dictionary/3,
                word/3,
                members/3,
                net/6,
                net_sibling/2,
                uniform/4,
                sites/2,
                fill_board/2,
                choose/3,
                place/3,
                propagate/2
              ]).
:- use_module(kernel,
              [ count_node/0,
                count_backtrack/0,
                scores/2,
                count_restart/1,
                lcg_state/2,
                lcg_halves/3,
                random_below/4,
                remember/4,
                recall/3
              ]).

%   This family, as crossword.pl knows it (docs/search.md#adding-a-strategy):
%   it reads a dictionary, its strategy runs as wdeg(Key) or, with scores,
%   wdeg(Key, ScoreKey), or with scores and start weights (load_weights/2),
%   wdeg(Key, ScoreKey, WeightsKey).
:- multifile crossword:family/2, crossword:family_strategy/3, crossword:family_search/7,
             crossword:reads_dictionary/1.

crossword:family(wdeg, 3).
crossword:family_strategy(wdeg, wdeg, true).
crossword:reads_dictionary(wdeg).
crossword:family_search(wdeg, wdeg(Key), Seed, _, Board, Arcs, Crossings) :-
    wdeg_search(Key, Seed, Board, Arcs, Crossings).
crossword:family_search(wdeg, wdeg(Key, ScoreKey), Seed, _, Board, Arcs, Crossings) :-
    wdeg_search(Key, ScoreKey, Seed, Board, Arcs, Crossings).
crossword:family_search(wdeg, wdeg(Key, ScoreKey, WeightsKey), Seed, _, Board, Arcs,
                        Crossings) :-
    wdeg_search(Key, ScoreKey, WeightsKey, Seed, Board, Arcs, Crossings).

:- set_prolog_flag(optimise, true).     % arithmetic compiled inline: the hot loops are arithmetic

first_limit_extra(10).
streams(2).             % searches taking turns (docs/search.md#two-streams)
weight_draw(3).         % a seed past the default's draws weights from 1 to this
kept_weights(2).        % start weights kept loaded (load_weights/2), most recent first

                 /*******************************
                 *            SEARCH            *
                 *******************************/

%!  wdeg_search(+Key:integer, +Seed, +Board:list(list(var)),
%!              +Arcs:list(list(compound)), +Crossings:integer) is nondet.
%
%   Bind every site of Board to a word of the dictionary kept under Key
%   (arcs:load_dictionary/2), once per fill; Board, Arcs and Crossings are layout:layout/5's (the
%   predefined letters are bound in Board already).  Seed is none or an
%   integer >= 0 for the LCG (none counts as 0); stream I (from 0) of the
%   streams/1 searches draws from Seed + I.
%
%   ?- arcs:load_dictionary_text(7, "2 2\nabac\n\n97=0x3\n98=0x1 99=0x2\n"),
%      Board = [[A, _], [A, _]],          % two sites crossing at their first cell
%      Arcs = [[x(0, 1, 0, 0)], [x(0, 0, 0, 0)]],
%      kernel:reset_counters,
%      findall(Board, wdeg_search(7, none, Board, Arcs, 1), Fills).
%   Fills = [[[a, c], [a, b]], [[a, b], [a, c]]].
%
%   wdeg_search/6 takes the key of the words' scores too (kernel:scores/2,
%   in the order of the dictionary's words): among words of equal
%   look-ahead, the higher-scored is tried first (docs/search.md#order-of-words).
%   They are reached through the backtrackable global wdeg_scores (none
%   without scores), which order/3 reads.
%
%   wdeg_search/7 takes the key of start weights too (load_weights/2): each
%   stream's crossings start with these weights, not 1 nor drawn
%   (docs/search.md#warm-start).  At the first fill, the weights of the
%   search that found it are kept for learned_weights/1.

wdeg_search(Key, Seed, Board, Arcs, Crossings) :-
    b_setval(wdeg_scores, none),
    search(Key, none, Seed, Board, Arcs, Crossings).

wdeg_search(Key, ScoreKey, Seed, Board, Arcs, Crossings) :-
    scores(ScoreKey, Scores),
    b_setval(wdeg_scores, Scores),
    search(Key, none, Seed, Board, Arcs, Crossings).

wdeg_search(Key, ScoreKey, WeightsKey, Seed, Board, Arcs, Crossings) :-
    scores(ScoreKey, Scores),
    recall(wdeg_weights, WeightsKey, Start),
    b_setval(wdeg_scores, Scores),
    search(Key, Start, Seed, Board, Arcs, Crossings).

%!  load_weights(+WeightsKey:integer, +Weights:list(integer)) is det.
%
%   Keep under WeightsKey the weights a search's crossings start from, in
%   crossing id order (as learned_weights/1 gave them), for
%   wdeg_search/7; the kept_weights/1 loaded last are kept.
%
%   ?- load_weights(5, [1, 3, 2]), recall(wdeg_weights, 5, W).
%   W = weights(1, 3, 2).

load_weights(WeightsKey, Weights) :-
    must_be(list(positive_integer), Weights),
    Start =.. [weights|Weights],
    kept_weights(Kept),
    remember(wdeg_weights, Kept, WeightsKey, Start).

%!  learned_weights(-Text:string) is det.
%
%   The crossings' weights, in id order and space-separated, of the search
%   that found the first fill of this thread's last wdeg search, as they
%   were then ("" when it found none): what it learned, to start a search
%   of the same sites from (load_weights/2; docs/search.md#warm-start).

learned_weights(Text) :-
    (   nb_current(wdeg_learned, Atom)
    ->  atom_string(Atom, Text)
    ;   Text = ""
    ).

%   learned(+Weights): at the search's first fill, keep the weights as
%   learned_weights/1 gives them (later fills cost no copy), as an atom: a
%   compound or a string kept with nb_setval/2 would be copied onto the
%   global stack and freeze it, so that backtracking over the search no
%   longer frees what it took.
learned(Weights) :-
    (   nb_getval(wdeg_learned, '')
    ->  Weights =.. [_|List],
        atomic_list_concat(List, ' ', Atom),
        nb_setval(wdeg_learned, Atom)
    ;   true
    ).

search(Key, Start, Seed, Board, Arcs, Crossings) :-
    nb_setval(wdeg_learned, ''),
    dictionary(Key, Tables, Copies),
    (   Seed == none
    ->  First = 0
    ;   First = Seed
    ),
    net(Tables, Copies, Board, Arcs, Crossings, Net),
    streams(Count),
    Last is First + Count - 1,
    numlist(First, Last, [_|Seeds]),
    maplist(sibling(Net, Start), Seeds, Siblings),
    state(Net, First, Start, State),
    solutions([State|Siblings], Found),
    arg(1, Found, FoundNet),
    arg(4, FoundNet, Weights),
    learned(Weights),
    fill_board(FoundNet, Board).

%   sibling(+Net, +Start, +Seed, -Sibling): a fresh state for the same
%   sites as Net (before any search), drawing from Seed, its weights from
%   Start; its net shares Net's fixed arguments.
sibling(Net, Start, Seed, Sibling) :-
    net_sibling(Net, SiblingNet),
    state(SiblingNet, Seed, Start, Sibling).

%   state(+Net, +Seed, -State): the state st(Net, Run, Phase, Learning,
%   Seen) of a search of Net (arcs.pl's, before any search) drawing from Seed:
%   Run = run(Limit, Placed, High, Low) changes with nb_setarg/3: no limit
%   yet, no word placed, the LCG at Seed; Phase as phase/2 says, no phase
%   yet; Learning = learning(First, Refuted) (docs/search.md#nogoods):
%   First is the run's first choice, lvl(S, Candidates, K) while site S
%   tries word K of Candidates, and Refuted the S-K words that first
%   choices refuted, in the order learned; both change with setarg/3
%   (Refuted between runs only).  The LCG's 64-bit state is kept as two
%   32-bit halves: nb_setarg/3 of an integer too big to be tagged copies
%   it onto the global stack and freezes the stack below it, so
%   backtracking would no longer free what the search allocated
%   (kernel:lcg_halves/3).  Seen = seen(Last, Marks, ToDo) is parts/3's:
%   per site the label of the part it was last found in, the last label
%   given (labels only grow, so a part never needs its marks cleared) and
%   room for the sites its walk has still to visit.
%   The net's weights are Start's, or drawn as initial_weights/3 says
%   (Start none; state/3 takes none).
state(Net, Seed, State) :-
    state(Net, Seed, none, State).

state(Net, Seed, Start, st(Net, Run, Phase, learning(none, []), seen(0, Marks, ToDo))) :-
    arg(1, Net, Dom),
    functor(Dom, _, N),
    phase(N, Phase),
    uniform(marks, N, 0, Marks),
    uniform(to_do, N, 0, ToDo),
    run(Seed, Run),
    arg(4, Net, Weights),
    (   Start == none
    ->  initial_weights(Seed, Run, Weights)
    ;   start_weights(Start, Weights)
    ).

%   start_weights(+Start, +Weights): each crossing's weight as in Start
%   (no draw: the LCG is not touched).
start_weights(Start, Weights) :-
    functor(Weights, _, N),
    (   functor(Start, _, N)
    ->  true
    ;   domain_error(weights_of_crossings(N), Start)
    ),
    copy_args(N, Start, Weights).

%   initial_weights(+Seed, +Run, +Weights): with a seed of the default
%   search (below streams/1) every weight stays 1; another seed draws each
%   crossing's, in id order, from 1 to weight_draw/1, so that its search
%   differs from the first choice on (docs/search.md#weights).
initial_weights(Seed, _, _) :-
    streams(Count),
    Seed < Count,
    !.
initial_weights(_, Run, Weights) :-
    functor(Weights, _, N),
    weight_draw(Most),
    draw_weights(1, N, Most, Run, Weights).

draw_weights(X, N, Most, Run, Weights) :-
    (   X > N
    ->  true
    ;   draw_below(Run, Most, R),
        W is 1 + R,
        nb_setarg(X, Weights, W),
        X1 is X + 1,
        draw_weights(X1, N, Most, Run, Weights)
    ).

%   run(+Seed, -Run): no limit yet, no word placed, the LCG at Seed.
run(Seed, run(none, 0, High, Low)) :-
    lcg_state(Seed, Lcg),
    lcg_halves(Lcg, High, Low).

%   phase(+N, -Phase): phase(Depth, Best, At, Deep, Prefer) for N sites
%   (docs/search.md#phase): At holds per site the word a choice put
%   there (-1: none) and Depth how many sites have one, both changed with
%   setarg/3;
%   Best is the most of them in this run so far, Deep the words of At then
%   and Prefer the words this run prefers, changed with nb_setarg/3 (small
%   integers only, so nothing is copied onto the global stack).
phase(N, phase(0, -1, At, Deep, Prefer)) :-
    uniform(at, N, -1, At),
    uniform(deep, N, -1, Deep),
    uniform(prefer, N, -1, Prefer).

%   solutions(+States, -State): the streams' searches take turns in rounds
%   of one run each until one finds a fill; that one then goes on alone
%   (docs/search.md#two-streams), and State is its state at each fill.
%   Each search propagates its root before its first run, and its runs
%   have a growing node limit (docs/search.md#restarts).
solutions(States, State) :-
    States = [st(Net, _, _, _, _)|_],
    sites(Net, Sites),
    length(Sites, N),
    first_limit_extra(Extra),
    Limit is 2 * N + Extra,
    length(States, Count),
    Last is Count - 1,
    numlist(0, Last, Indices),
    maplist(first_run(Limit), Indices, States, Streams),
    turns(Streams, [], Sites, State).

first_run(Limit, Index, State, s(Index, 1, Limit, State)).

%   turns(+Round, +Restarted, +Sites, -State): the streams of Round take
%   their next run, in turn.  A stream that reaches its limit joins
%   Restarted, keyed by the depth of its run's deepest point and its index,
%   and the next round takes them deepest first (ties: the first stream
%   first).  A run that ends within its limit ends the turns: State is its
%   search, which succeeds once per fill (a root whose propagation fails,
%   or a run with no fill, fails them all).
turns([], Restarted, Sites, Found) :-
    keysort(Restarted, Sorted),
    pairs_values(Sorted, Round),
    turns(Round, [], Sites, Found).
turns([s(Index, Number, Limit, State)|Round], Restarted, Sites, Found) :-
    State = st(Net, Run, Phase, Learning, _),
    (   Number =:= 1
    ->  propagate(Sites, Net)
    ;   true
    ),
    nb_setarg(1, Run, Limit),
    nb_setarg(2, Run, 0),
    forbid_at_root(State),
    start_phase(Number, Phase),
    catch(fill(Sites, State), wdeg_restart(Failed), Reached = true),
    (   Reached == true
    ->  arg(2, Learning, Refuted0),
        append(Refuted0, Failed, Refuted),
        setarg(2, Learning, Refuted),
        arg(2, Phase, Depth),
        count_restart(Depth),
        Deeper is -Depth,
        Number1 is Number + 1,
        Limit1 is Limit * 3 // 2,
        turns(Round, [k(Deeper, Index)-s(Index, Number1, Limit1, State)|Restarted],
              Sites, Found)
    ;   nb_setarg(1, Run, none),
        Found = State
    ).

%   forbid_at_root(+State): the refuted words leave their sites' root
%   domains (with setarg/3 outside any run, so for this run and the next
%   ones); fails if the root then fails.
forbid_at_root(st(Net, _, _, learning(_, Refuted), _)) :-
    arg(1, Net, Dom),
    forbid(Refuted, Dom, [], Back),
    (   Back == []
    ->  true
    ;   reverse(Back, Changed),
        propagate(Changed, Net)
    ).

%   forbid(+Choices, +Dom, +Back0, -Back): take each word W of the Choices
%   T-W out of D(T), if it is there (a domain emptied is a dead end); a
%   site changed joins Back0 (the changed sites, last first) unless it is
%   there.
forbid([], _, Back, Back).
forbid([T-W|Choices], Dom, Back0, Back) :-
    T1 is T + 1,
    arg(T1, Dom, D),
    (   getbit(D, W) =:= 1
    ->  D1 is D xor (1 << W),
        (   D1 =:= 0
        ->  dead_end,
            fail
        ;   setarg(T1, Dom, D1),
            (   memberchk(T, Back0)
            ->  Back1 = Back0
            ;   Back1 = [T|Back0]
            )
        )
    ;   Back1 = Back0
    ),
    forbid(Choices, Dom, Back1, Back).

%   start_phase(+Number, +Phase): run Number prefers the words of the last
%   run's deepest point when Number is odd, none when it is even; its own
%   deepest point is not reached yet.
start_phase(Number, Phase) :-
    Phase = phase(_, _, _, Deep, Prefer),
    nb_setarg(2, Phase, -1),
    functor(Deep, _, N),
    (   Number mod 2 =:= 1
    ->  copy_args(N, Deep, Prefer)
    ;   set_args(N, Prefer, -1)
    ),
    set_args(N, Deep, -1).

%   fill(+Region, +State): fill the open sites of Region; succeeds once per
%   fill of them.  At a split, the domains and supports of the sites of the
%   later parts are kept for fills_alone/4 (only theirs: a copy of every
%   site's domain at every split made the memory grow with sites x depth;
%   a support is a term the net holds already, kept here by reference).
fill(Region, State) :-
    State = st(net(Dom, Open, _, _, _, _, _, _, Sup, _, _), _, _, _, _),
    open_sites(Region, Open, Left),
    (   Left == []
    ->  true
    ;   parts(Left, State, Parts),
        (   Parts = [_]
        ->  branch(Left, State)
        ;   Parts = [_|Later],
            maplist(domains_of(Dom, Sup), Later, AtSplit),
            chain(Parts, AtSplit, [], State)
        )
    ).

domains_of(Dom, Sup, Part, Domains) :-
    maplist(domain_of(Dom, Sup), Part, Domains).

domain_of(Dom, Sup, S, at(D, U)) :-
    S1 is S + 1,
    arg(S1, Dom, D),
    arg(S1, Sup, U).

is_open(Open, S) :-                     % (cubes.pl's filter)
    S1 is S + 1,
    arg(S1, Open, true).

%   open_sites(+Sites, +Open, -Left): the open sites of Sites, in order
%   (include/3 written out: it runs at every node).
open_sites([], _, []).
open_sites([S|Sites], Open, Left) :-
    S1 is S + 1,
    (   arg(S1, Open, true)
    ->  Left = [S|Left1]
    ;   Left = Left1
    ),
    open_sites(Sites, Open, Left1).

%   branch(+Region, +State): choose a site and try its words in turn; the
%   run's first choice (no site holds a chosen word yet) is kept while it
%   tries each.
branch(Region, State) :-
    State = st(Net, _, phase(Depth, _, _, _, _), Learning, _),
    choose(Region, Net, S),
    order(S, State, Candidates),
    member(K, Candidates),
    (   Depth =:= 0
    ->  setarg(1, Learning, lvl(S, Candidates, K))
    ;   true
    ),
    node(State),
    place(S, K, Net),
    note_depth(S, K, State),
    fill(Region, State).

%   note_depth(+Site, +K, +State): word K is in Site, put there by a choice;
%   keep the words at the run's deepest point so far
%   (docs/search.md#phase).
note_depth(S, K, State) :-
    arg(3, State, Phase),
    Phase = phase(Depth0, Best, At, Deep, _),
    S1 is S + 1,
    setarg(S1, At, K),
    Depth is Depth0 + 1,
    setarg(1, Phase, Depth),
    (   Depth > Best
    ->  nb_setarg(2, Phase, Depth),
        functor(At, _, N),
        copy_args(N, At, Deep)
    ;   true
    ).

%   copy_args(+N, +From, +To): arguments 1..N of From into To (small
%   integers, with nb_setarg/3).
copy_args(N, From, To) :-
    (   N =:= 0
    ->  true
    ;   arg(N, From, X),
        nb_setarg(N, To, X),
        N1 is N - 1,
        copy_args(N1, From, To)
    ).

%   set_args(+N, +Term, +X): arguments 1..N of Term become X (an atom or
%   small integer, with nb_setarg/3).
set_args(N, Term, X) :-
    (   N =:= 0
    ->  true
    ;   nb_setarg(N, Term, X),
        N1 is N - 1,
        set_args(N1, Term, X)
    ).

%   node(+State): count a node; past the run's limit, restart.
node(State) :-
    count_node,
    arg(2, State, Run),
    arg(2, Run, Placed0),
    Placed is Placed0 + 1,
    nb_setarg(2, Run, Placed),
    arg(1, Run, Limit),
    (   Limit \== none,
        Placed > Limit
    ->  arg(4, State, learning(lvl(S, Candidates, K), _)),
        refuted(Candidates, S, K, Failed),
        throw(wdeg_restart(Failed))
    ;   true
    ).

%   refuted(+Candidates, +S, +K, -Failed): S-W for each word W of
%   Candidates before K: the run's first choice tried them all, and they
%   failed.
refuted([W|Ws], S, K, Failed) :-
    (   W =:= K
    ->  Failed = []
    ;   Failed = [S-W|Failed1],
        refuted(Ws, S, K, Failed1)
    ).

dead_end :-
    count_backtrack.

%   chain(+Parts, +AtSplit, +Done, +State): fill the parts one after the
%   other; AtSplit: per part after the first, its sites' domains and
%   supports at the split, each at(Domain, Support); Done: the sites filled
%   since the split, in earlier parts.  When a later part fails just after
%   an earlier part was filled, it is tried alone once from the domains at
%   the split; if that fails too, stop.
chain([Head], _, _, State) :-
    !,
    fill(Head, State).
chain([Head|Rest], AtSplit, Done, State) :-
    Tried = tried(false),
    append(Done, Head, Done1),
    fill(Head, State),
    Filled = filled(false),
    AtSplit = [_|Later],
    (   chain(Rest, Later, Done1, State),
        nb_setarg(1, Filled, true)
    ;   arg(1, Filled, false),
        arg(1, Tried, false),
        nb_setarg(1, Tried, true),
        \+ fills_alone(Rest, AtSplit, Done1, State),
        !,
        fail
    ).

%   fills_alone(+Parts, +AtSplit, +Done, +State): Parts can be filled from
%   their domains at the split (AtSplit, per part), with the copies of the
%   words Done took given back, as if no other site were open (a word used
%   up in Parts must not fail the probe by emptying a site elsewhere).
%   Nodes, weights and draws count; all else is undone.  The probe starts
%   with no dead-letter mark: a mark made since the split may no longer
%   hold, as the domains grow back, and a mark only spares a revision work,
%   never changes its result (arcs.pl).  Not a copy of the split's marks
%   kept at each split: one term of every crossing's letters per level made
%   the memory grow with crossings x depth (issue 39 item 5; a 65x65 exact
%   grid grew 300 MB instead of 45).
fills_alone(Parts, AtSplit, Done, State) :-
    \+ \+ ( State = st(Net, _, _, _, _),
            Net = net(Dom, Open, Left, _, _, Lengths, _, _, Sup, _, _),
            append(Parts, Sites),
            close_others(Open, Sites),
            maplist(maplist(reset_domain(Dom, Sup)), Parts, AtSplit),
            arg(10, Net, Dead),
            functor(Dead, _, Flags),
            uniform(dead, Flags, false, NoMarks),
            setarg(10, Net, NoMarks),
            maplist(give_back(Dom, Left, Lengths), Done),
            fill(Sites, State)
          ).

%   close_others(+Open, +Sites): every open site not in Sites is closed
%   (with setarg/3, so backtracking opens it again).
close_others(Open, Sites) :-
    functor(Open, _, N),
    close_from(1, N, Open, Sites).

close_from(I, N, _, _) :-
    I > N,
    !.
close_from(I, N, Open, Sites) :-
    (   arg(I, Open, true),
        S is I - 1,
        \+ memberchk(S, Sites)
    ->  setarg(I, Open, false)
    ;   true
    ),
    I1 is I + 1,
    close_from(I1, N, Open, Sites).

%   A site reset to its domain at the split gets its support of then back:
%   it still holds (at the split propagation was done, and every neighbour
%   of the site is reset with it or closed), so its next revision need not
%   be a full one.
reset_domain(Dom, Sup, S, at(D, U)) :-
    S1 is S + 1,
    setarg(S1, Dom, D),
    setarg(S1, Sup, U).

give_back(Dom, Left, Lengths, S) :-
    S1 is S + 1,
    arg(S1, Dom, D),
    arg(S1, Lengths, L),
    arg(L, Left, Counts),
    K is msb(D) + 1,
    arg(K, Counts, C0),
    C is C0 + 1,
    setarg(K, Counts, C).

%   parts(+Left, +State, -Parts): the connected parts of the open sites
%   Left, smallest first, ties to the lowest index; each part ascending.
%   A walk over the links from each site not yet found marks the sites of
%   its part with a label of their own in Seen (see state/3): one part,
%   the usual case, costs no term on the global stack (a fresh term of
%   every site per node was most of what the search allocated).
parts(Left, State, Parts) :-
    State = st(net(_, Open, _, _, Links, _, _, _, _, _, _), _, _, _, Seen),
    ascending(Left, Sorted),
    Seen = seen(Last, Marks, ToDo),
    First is Last + 1,
    Walk = walk(Links, Open, Marks, ToDo, First),
    label_parts(Sorted, Walk, First, Next, Keyed, 0, Found),
    length(Sorted, Count),
    (   Found =:= Count
    ->  true
    ;   domain_error(region_closed_under_links, Left)
    ),
    Last1 is Next - 1,
    nb_setarg(1, Seen, Last1),
    (   Keyed = [_]
    ->  Parts = [Sorted]
    ;   maplist(labelled(Marks), Sorted, Labelled),
        keysort(Labelled, ByLabel),
        group_pairs_by_key(ByLabel, Groups),
        pairs_values(Groups, PartList),
        PartsTerm =.. [parts|PartList],
        keysort(Keyed, SortedKeyed),
        pairs_values(SortedKeyed, Labels),
        maplist(labelled_part(PartsTerm, First), Labels, Parts)
    ).

%   ascending(+Sites, -Sorted): Sites sorted (most often they are).
ascending(Sites, Sorted) :-
    (   strictly_ascending(Sites)
    ->  Sorted = Sites
    ;   msort(Sites, Sorted)
    ).

strictly_ascending([]).
strictly_ascending([S|Ss]) :-
    strictly_ascending(Ss, S).

strictly_ascending([], _).
strictly_ascending([S|Ss], S0) :-
    S0 < S,
    strictly_ascending(Ss, S).

%   label_parts(+Sites, +Walk, +Label, -Next, -Keyed, +Found0, -Found):
%   each site of Sites (ascending) not marked since the walk's First
%   starts a part, the next Label, whose lowest site it is; Keyed has
%   (Size-Lowest)-Label per part, Found the sites marked.
label_parts([], _, Next, Next, [], Found, Found).
label_parts([S|Ss], Walk, Label, Next, Keyed, Found0, Found) :-
    Walk = walk(_, _, Marks, ToDo, First),
    S1 is S + 1,
    arg(S1, Marks, Mark),
    (   Mark >= First
    ->  Keyed = Keyed1,
        Label1 = Label,
        Found1 = Found0
    ;   nb_setarg(S1, Marks, Label),
        nb_setarg(1, ToDo, S),
        walk(1, Walk, Label, 1, Size),
        Keyed = [(Size-S)-Label|Keyed1],
        Label1 is Label + 1,
        Found1 is Found0 + Size
    ),
    label_parts(Ss, Walk, Label1, Next, Keyed1, Found1, Found).

%   walk(+Top, +Walk, +Label, +Size0, -Size): mark with Label every open
%   site linked to a site of ToDo's first Top (marked already) and not
%   marked since First; Size counts the marked.  ToDo is a stack of
%   small integers set with nb_setarg/3 (each site is pushed once, when it
%   is marked): a recursive walk would take a frame per site on the local
%   stack, and when the local stack grows SWI-Prolog moves every stack.
walk(Top, Walk, Label, Size0, Size) :-
    (   Top =:= 0
    ->  Size = Size0
    ;   Walk = walk(Links, _, _, ToDo, _),
        arg(Top, ToDo, S),
        S1 is S + 1,
        arg(S1, Links, SiteLinks),
        Top0 is Top - 1,
        reach_links(SiteLinks, Walk, Label, Top0, Top1, Size0, Size1),
        walk(Top1, Walk, Label, Size1, Size)
    ).

reach_links([], _, _, Top, Top, Size, Size).
reach_links([l(_, T, _, _, _, _)|SiteLinks], Walk, Label, Top0, Top, Size0, Size) :-
    Walk = walk(_, Open, Marks, ToDo, First),
    T1 is T + 1,
    (   arg(T1, Open, true),
        arg(T1, Marks, Mark),
        Mark < First
    ->  nb_setarg(T1, Marks, Label),
        Top1 is Top0 + 1,
        nb_setarg(Top1, ToDo, T),
        Size1 is Size0 + 1
    ;   Top1 = Top0,
        Size1 = Size0
    ),
    reach_links(SiteLinks, Walk, Label, Top1, Top, Size1, Size).

labelled(Marks, S, Label-S) :-
    S1 is S + 1,
    arg(S1, Marks, Label).

labelled_part(PartsTerm, First, Label, Part) :-
    A is Label - First + 1,
    arg(A, PartsTerm, Part).

                 /*******************************
                 *            CHOICES           *
                 *******************************/

%   order(+Site, +State, -Candidates): the words of D(Site) to try, in turn:
%   by index, rotated at a random one, sorted by their look-ahead product
%   (most first, stable); then the word the run prefers there, if D(Site)
%   has it, goes first.
order(S, State, Candidates) :-
    State = st(Net, Run, Phase, _, _),
    Net = net(Dom, Open, _, _, Links, Lengths, _, Tables, _, _, _),
    S1 is S + 1,
    arg(S1, Dom, D),
    Count is popcount(D),
    members(D, Members, End),
    (   Count > 1
    ->  draw_below(Run, Count, R),
        rotation(R, Members, End, Rotated)
    ;   End = [],
        Rotated = Members
    ),
    arg(S1, Links, SiteLinks),
    looks(SiteLinks, Open, Dom, Lengths, Tables, Looks),
    b_getval(wdeg_scores, Scores),
    (   ( Count =< 1 ; Looks == [], Scores == none )
    ->  Sorted = Rotated
    ;   arg(S1, Lengths, L),
        arg(L, Tables, table(Words, _, _)),
        (   arcs:look_ahead(Net, S, Rotated, Keyed0)    % the same counts in C, when it runs
        ->  true
        ;   score(Rotated, Words, Looks, Keyed0)
        ),
        tie_break(Scores, L, Keyed0, Keyed),
        keysort(Keyed, SortedKeyed),
        pairs_values(SortedKeyed, Sorted)
    ),
    arg(5, Phase, Prefer),
    arg(S1, Prefer, K),
    preferred(K, D, Sorted, Candidates).

%   preferred(+K, +D, +Words, -Candidates): Words with K first, if D has it.
preferred(K, D, Words, Candidates) :-
    (   K >= 0,
        Words = [First|_],
        First =\= K,
        getbit(D, K) =:= 1
    ->  selectchk(K, Words, Others),
        Candidates = [K|Others]
    ;   Candidates = Words
    ).

%   draw_below(+Run, +Bound, -Value): the LCG's next draw mod Bound
%   (kernel:random_below/4), its state kept in Run as two halves.
draw_below(Run, Bound, Value) :-
    arg(3, Run, High0),
    arg(4, Run, Low0),
    lcg_halves(State0, High0, Low0),
    random_below(Bound, State0, State, Value),
    lcg_halves(State, High, Low),
    nb_setarg(3, Run, High),
    nb_setarg(4, Run, Low).

%   rotation(+R, +List, -Tail, -Rotated): the open list List-Tail with its
%   first R elements moved to the end; only those R are copied.
rotation(R, List, Tail, Rotated) :-
    (   R =:= 0
    ->  Tail = [],
        Rotated = List
    ;   List = [X|Xs],
        Tail = [X|Tail1],
        R1 is R - 1,
        rotation(R1, Xs, Tail1, Rotated)
    ).

%   looks(+Links, +Open, +Dom, +Lengths, +Tables, -Looks): per crossing with
%   an open site T, look(I, Pairs, DT, Low, Memo): position I here, T's
%   Code-Mask pairs at the crossing, D(T), Low the least code of Pairs and
%   Memo the counts found so far, argument Code - Low + 1 for letter Code
%   (unbound until found) up to the greatest code of Pairs.
looks([], _, _, _, _, []).
looks([l(I, T, J, _, _, _)|Links], Open, Dom, Lengths, Tables, Looks) :-
    T1 is T + 1,
    (   arg(T1, Open, true)
    ->  arg(T1, Dom, DT),
        arg(T1, Lengths, LT),
        arg(LT, Tables, table(_, _, Masks)),
        J1 is J + 1,
        arg(J1, Masks, Pairs),
        I1 is I + 1,
        memo(Pairs, Low, Memo),
        Looks = [look(I1, Pairs, DT, Low, Memo)|Looks1]
    ;   Looks = Looks1
    ),
    looks(Links, Open, Dom, Lengths, Tables, Looks1).

memo([], 1, counts(0)).                 % no letter there: every count is 0
memo([Low-_|Pairs], Low, Memo) :-
    last([Low-_|Pairs], High-_),
    Size is High - Low + 1,
    functor(Memo, counts, Size).

%   score(+Ids, +Words, +Looks, -Keyed): NegProduct-Id per word, the product
%   over the looks of the words of D(T) that would keep the crossing letter.
%   The count of a letter is kept in the look's Memo once found (an
%   argument looked up, where a list would be searched); a letter outside
%   its codes has none.
%   tie_break(+Scores, +L, +Keyed0, -Keyed): with scores, each key
%   Neg-K becomes k(Neg, NegScore)-K, so that among equal look-aheads the
%   higher-scored word comes first (the sort stays stable).
tie_break(none, _, Keyed, Keyed) :-
    !.
tie_break(Scores, L, Keyed0, Keyed) :-
    arg(L, Scores, Term),
    maplist(scored_key(Term), Keyed0, Keyed).

scored_key(Term, Neg-K, k(Neg, NegScore)-K) :-
    K1 is K + 1,
    arg(K1, Term, Score),
    NegScore is -Score.

score([], _, _, []).
score([K|Ks], Words, Looks, [Neg-K|Keyed]) :-
    word(Words, K, Word),
    keeps(Looks, Word, 1, Product),
    Neg is -Product,
    score(Ks, Words, Looks, Keyed).

keeps([], _, P, P).
keeps([look(I, Pairs, DT, Low, Memo)|Looks], Word, P0, P) :-
    string_code(I, Word, Code),
    Arg is Code - Low + 1,
    (   Arg >= 1,
        arg(Arg, Memo, Count)
    ->  (   var(Count)
        ->  letter_count(Code, Pairs, DT, Count)
        ;   true
        )
    ;   Count = 0
    ),
    P1 is P0 * Count,
    keeps(Looks, Word, P1, P).

letter_count(Code, Pairs, DT, Count) :-
    (   memberchk(Code-Mask, Pairs)
    ->  Count is popcount(DT /\ Mask)
    ;   Count = 0
    ).
