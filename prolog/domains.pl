/*  domains: the strategies mrv, ac3, lcv, cs50 and cbj: forward checking
    over the domains of the open sites.

    The strategies are specified in docs/search.md#mrv, docs/search.md#ac3,
    docs/search.md#lcv, docs/search.md#cs50 and docs/search.md#cbj (and
    docs/search.md#seeds for the shuffled domains and the random
    tie-breaks); this module mirrors pybridge/search/domains.py step for
    step.  What follows in the comments is how, not what.

    The board and the crossings are layout.pl's: a word is placed by
    unifying it with the site's variables.  The counters and the LCG are
    kernel.pl's.  The search state is one term changed with setarg/3, so
    backtracking puts it back for free (see open_sites/6).

    No I/O here.
*/

:- module(domains,
          [ domain_search/5             % +Strategy, +Seed, +Words, +Board, +Arcs
          ]).

%   Arithmetic compiled inline: the search is mostly counting and
%   comparing.
:- set_prolog_flag(optimise, true).

:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(library(ordsets)).
:- use_module(library(pairs)).
:- use_module(kernel,
              [ count_node/0,
                count_backtrack/0,
                count_leaf/0,
                counter/2,
                lcg_state/2,
                lcg_draws/4,
                shuffle/4
              ]).

%   This family, as crossword.pl knows it (docs/search.md#adding-a-strategy).
:- multifile crossword:family/2, crossword:family_strategy/3, crossword:family_search/7,
             crossword:search_global/1.

crossword:family(domains, 2).
crossword:family_strategy(mrv,  domains, true).
crossword:family_strategy(ac3,  domains, true).
crossword:family_strategy(lcv,  domains, true).
crossword:family_strategy(cs50, domains, true).
crossword:family_strategy(cbj,  domains, true).
crossword:family_search(domains, Strategy, Seed, Words, Board, Arcs, _) :-
    domain_search(Strategy, Seed, Words, Board, Arcs).
crossword:search_global(domains_conflict).

%!  domain_search(+Strategy, +Seed, +Words:list(list(char)),
%!                +Board:list(list(var)), +Arcs:list(list(compound))) is nondet.
%
%   Bind every site of Board to one of Words, each word used exactly once;
%   Board and Arcs are layout:layout/5's.  Strategy is mrv, ac3, lcv, cs50
%   or cbj; Seed is none or an integer >= 0.  Succeeds once per fill.
%
%   ?- Board = [[A, _], [A, _]],          % two sites crossing at their first cell
%      Arcs = [[x(0, 1, 0, 0)], [x(0, 0, 0, 0)]],
%      kernel:reset_counters,
%      findall(Board, domain_search(mrv, none, [[a, b], [a, c]], Board, Arcs), Fills).
%   Fills = [[[a, b], [a, c]], [[a, c], [a, b]]].

domain_search(Strategy, Seed, Listed, Board, Arcs) :-
    domain_strategy(Strategy, Consistency, Values),
    length(Board, NSites),
    distinct_words(Listed, Seed, NSites, Words, Counts, Draws),
    open_sites(Board, Arcs, Words, Counts, Draws, State),
    consistent(Consistency, State),
    strategy_search(Strategy, State, Values).

%   domain_strategy(?Strategy, ?Consistency, ?Values): what a domain
%   strategy does before the search, and in which order it tries words.
domain_strategy(mrv, forward, domain).
domain_strategy(ac3, arcs, domain).
domain_strategy(lcv, forward, least_constraining).
domain_strategy(cs50, arcs, least_constraining).
domain_strategy(cbj, forward, domain).

strategy_search(cbj, State, _) :-
    !,
    cbj(State).
strategy_search(_, State, Values) :-
    arg(6, State, NSites),
    mrv(NSites, State, Values).

%   distinct_words(+Listed, +Seed, +NSites, -Words, -Counts, -Draws): Words
%   is words(W1, ...) holding each distinct word of Listed once, in order of first
%   listing (shuffled with a seed); Counts is counts(C1, ...) with how many
%   copies of each are still to be placed; Draws holds each site's random
%   tie-break (all 0 without a seed).  Counts is updated with setarg/3,
%   which is undone on backtracking.
distinct_words(Listed, Seed, NSites, Words, Counts, Draws) :-
    (   sort(Listed, Set),
        same_length(Set, Listed)        % no word twice (P-99, dictionaries)
    ->  maplist(once_listed, Listed, WordCounts0)
    ;   foldl(word_index, Listed, Pairs, 0, _),
        msort(Pairs, Sorted),
        group_pairs_by_key(Sorted, Groups),
        maplist(first_and_count, Groups, Keyed),
        keysort(Keyed, ByFirst),
        pairs_values(ByFirst, WordCounts0)
    ),
    random_order(Seed, NSites, WordCounts0, WordCounts, Draws),
    pairs_keys_values(WordCounts, Distinct, Cs),
    Words =.. [words|Distinct],
    Counts =.. [counts|Cs].

once_listed(W, W-1).

word_index(W, W-I, I, I1) :-
    I1 is I + 1.

%   Indices come sorted, so the first is where the word was first listed.
first_and_count(W-[First|More], First-(W-N)) :-
    length([First|More], N).

%   random_order(+Seed, +NSites, +Items0, -Items, -Draws): Items0 shuffled
%   and one draw per site, in that order, from the LCG at Seed; without a
%   seed the order stays and every draw is 0.
random_order(none, NSites, Items, Items, Draws) :-
    !,
    length(Draws, NSites),
    zeros(Draws).
random_order(Seed, NSites, Items0, Items, Draws) :-
    lcg_state(Seed, State0),
    shuffle(Items0, State0, Items, State),
    lcg_draws(NSites, State, Draws, _).

zeros([]).
zeros([0|Zs]) :-
    zeros(Zs).

%   open_sites(+Board, +Arcs, +Words, +Counts, +Draws, -State): the
%   search state s(Keys, Domains, Sites, Words, Counts, NSites, Filled,
%   Open).  Argument I+1 of Keys, Domains and Sites is about site I.  Domains
%   holds its domain: the indices (into Words) of the words that fit, in
%   order; it may still hold words used up since it was filtered (the key
%   counts them out; see drop_word/4).  Sites holds site(Vars,
%   Crossings, Neighbours, Same): Crossings lists x(I, T, J, Id), position
%   I of this site is position J of site T (layout.pl's arcs); Neighbours
%   is the ordered set of those T + 1, Same the arguments of the sites of its length.  Keys
%   order the sites by smallest domain, then most crossings, then the
%   random draw (0 without a seed), then index.  All but the domain size
%   are fixed, so they make one rank per site, and Key = DomainSize *
%   NSites + Rank orders sites exactly so with one integer comparison; a
%   filled site's key is Filled, above every other.  Open holds the
%   site arguments, the open sites first (see choose/4).  The search
%   changes Keys, Domains and Open with setarg/3, so backtracking puts
%   them back.
open_sites(Board, Arcs, Words, Counts, Draws,
           s(Keys, Domains, Sites, Words, Counts, NSites, Filled, Open)) :-
    Words =.. [_|WordList],
    by_length(WordList, ByLength),
    length(Board, NSites),
    tie_ranks(Arcs, Draws, Ranks),
    by_length(Board, SameLength),
    open_site_entries(Arcs, Board, Ranks, c(ByLength, SameLength, Words, Counts, NSites),
                      KeyList, DomainList, SiteList),
    Keys =.. [keys|KeyList],
    Domains =.. [domains|DomainList],
    Sites =.. [sites|SiteList],
    functor(Words, _, NWords),
    Filled is (NWords + 2) * NSites,
    findall(A, between(1, NSites, A), Args),
    Open =.. [open|Args].

%   tie_ranks(+Arcs, +Draws, -Ranks): each site's place (from 0) in the
%   order of most crossings, then draw, then index.
tie_ranks(Arcs, Draws, Ranks) :-
    foldl(tie_key, Arcs, Draws, Keys, 0, _),
    msort(Keys, Sorted),
    foldl(ranked, Sorted, Pairs, 0, _),
    keysort(Pairs, ByIndex),
    pairs_values(ByIndex, Ranks).

tie_key(Crossings, Draw, t(Neg, Draw, I), I, I1) :-
    length(Crossings, N),
    Neg is -N,
    I1 is I + 1.

ranked(t(_, _, I), I-Rank, Rank, Next) :-
    Next is Rank + 1.

%   by_length(+Lists, -ByLength): Length-Positions pairs, Positions the
%   1-based positions in Lists of the lists of that length, ascending: the
%   word ids of each length, and the arguments (site index + 1) of the
%   sites of each length.
by_length(Lists, ByLength) :-
    foldl(position_length, Lists, Keyed, 1, _),
    msort(Keyed, Sorted),
    group_pairs_by_key(Sorted, ByLength).

position_length(List, L-P, P, Next) :-
    length(List, L),
    Next is P + 1.

%   open_site_entries(+Arcs, +Board, +Ranks, +Context, -Keys, -Domains,
%   -Sites): each site's entries in the state (see open_sites/6).
open_site_entries([], [], [], _, [], [], []).
open_site_entries([Crossings|Arcs], [Vars|Board], [Rank|Ranks], Context,
                  [Key|Keys], [Domain|Domains], [Site|Sites]) :-
    Context = c(ByLength, SameLength, Words, Counts, NSites),
    Site = site(Vars, Crossings, Neighbours, Same),
    crossed_sites(Crossings, Neighbours),
    length(Vars, L),
    memberchk(L-Same, SameLength),
    (   memberchk(L-Ids, ByLength)
    ->  initial_domain(Vars, Ids, Words, Counts, Domain)
    ;   Domain = []
    ),
    length(Domain, Size),
    Key is Size * NSites + Rank,
    open_site_entries(Arcs, Board, Ranks, Context, Keys, Domains, Sites).

%   crossed_sites(+Crossings, -Args): the ordered set of the crossed sites'
%   arguments (index + 1).
crossed_sites(Crossings, Args) :-
    crossed(Crossings, As),
    sort(As, Args).

crossed([], []).
crossed([x(_, T, _, _)|Xs], [A|As]) :-
    A is T + 1,
    crossed(Xs, As).

%   Every word still has a copy to place here, so a site with no letter yet
%   takes every word of its length; that shortcut matters for dictionaries.
initial_domain(Vars, Ids, Words, Counts, Domain) :-
    (   term_variables(Vars, Free),
        Free == Vars                    % no letter yet (the cells differ)
    ->  Domain = Ids
    ;   fitting(Ids, Vars, Words, Counts, Domain)
    ).

%   fitting(+Ids, +Vars, +Words, +Counts, -Fit): the words of Ids with a
%   copy left that unify with Vars, in order (include/3 with fits/4, only
%   without the closure calls).
fitting([], _, _, _, []).
fitting([Id|Ids], Vars, Words, Counts, Fit) :-
    (   arg(Id, Counts, C),
        C > 0,
        arg(Id, Words, Chars),
        \+ Vars \= Chars
    ->  Fit = [Id|Fit1]
    ;   Fit = Fit1
    ),
    fitting(Ids, Vars, Words, Counts, Fit1).

%   consistent(+Consistency, !State): the domains as the search starts:
%   as they are (forward), or arc consistent (arcs), the keys following.
consistent(forward, _).
consistent(arcs, s(Keys, Domains, Sites, Words, _, NSites, _, _)) :-
    Sites =.. [_|SiteList],
    findall(a(X, I, Y, J), ( nth0(X, SiteList, site(_, Xs, _, _)),
                             member(x(I, Y, J, _), Xs) ), Arcs),
    ac3(Arcs, Sites, Words, Domains),
    resized(NSites, Keys, Domains, NSites).

%   resized(+A, !Keys, +Domains, +NSites): the keys of arguments A down
%   to 1 with the sizes of their domains now.
resized(0, _, _, _) :- !.
resized(A, Keys, Domains, NSites) :-
    arg(A, Domains, D),
    length(D, Size),
    arg(A, Keys, Key0),
    Key is Size * NSites + Key0 mod NSites,
    setarg(A, Keys, Key),
    A1 is A - 1,
    resized(A1, Keys, Domains, NSites).

%   ac3(+Queue, +Sites, +Words, !Domains): revise the arc at the head of the
%   queue; when D(x) shrinks, queue the arcs into x.  Stops at the fixpoint
%   or at the first empty domain.  Domains holds D(x) at argument x+1.
ac3([], _, _, _).
ac3([Arc|Queue], Sites, Words, Domains) :-
    Arc = a(X, I, Y, J),
    X1 is X + 1,
    Y1 is Y + 1,
    arg(X1, Domains, DX),
    arg(Y1, Domains, DY),
    letters_at(DY, J, Words, Letters),
    include(letter_in(I, Words, Letters), DX, DX1),
    (   same_length(DX, DX1)
    ->  ac3(Queue, Sites, Words, Domains)
    ;   setarg(X1, Domains, DX1),
        (   DX1 == []
        ->  true
        ;   arcs_into(X, Sites, Queue, Into),
            append(Queue, Into, Queue1),
            ac3(Queue1, Sites, Words, Domains)
        )
    ).

%   arcs_into(+X, +Sites, +Queue, -Arcs): the arcs z->x along x's crossings,
%   in their order, that are not queued already.
arcs_into(X, Sites, Queue, Arcs) :-
    X1 is X + 1,
    arg(X1, Sites, site(_, Xs, _, _)),
    findall(a(Z, K, X, L), ( member(x(L, Z, K, _), Xs),
                             \+ memberchk(a(Z, K, X, L), Queue) ), Arcs).

%   letters_at(+Ids, +Position, +Words, -Letters): the letters the words
%   have at Position, as an ordered set.
letters_at(Ids, Position, Words, Letters) :-
    maplist(letter_at(Position, Words), Ids, All),
    sort(All, Letters).

letter_at(Position, Words, Id, Letter) :-
    arg(Id, Words, Chars),
    nth0(Position, Chars, Letter).

letter_in(Position, Words, Letters, Id) :-
    letter_at(Position, Words, Id, Letter),
    ord_memberchk(Letter, Letters).

%   mrv(+Left, !State, +Values): fill the Left open sites: the one with
%   the smallest key takes each word of its domain in turn (in Values
%   order), then the rest are filled.  A key below NSites is an empty
%   domain.
mrv(0, _, _) :- !.
mrv(Left, State, Values) :-
    choose(Left, State, Best, Key),
    State = s(_, Domains, _, _, Counts, NSites, _, _),
    (   Key < NSites
    ->  count_backtrack,
        fail
    ;   true
    ),
    arg(Best, Domains, Stored),
    live(Stored, Counts, Domain),
    value_order(Values, Domain, Best, State, Ordered),
    member(Id, Ordered),
    place(State, Best, Id, none),
    Left1 is Left - 1,
    mrv(Left1, State, Values).

%   choose(+Left, !State, -Best, -Key): the argument of the open site with
%   the smallest key (keys differ), and its key; the site is marked
%   filled.  Open holds the arguments of the Left open sites first: the
%   chosen one swaps places with the last of them.
choose(Left, State, Best, Key) :-
    State = s(Keys, _, _, _, _, _, Filled, Open),
    min_open(Left, Open, Keys, Filled, 0, 0, Key, Best, At),
    arg(Left, Open, Last),
    setarg(At, Open, Last),
    setarg(Left, Open, Best),
    setarg(Best, Keys, Filled).

min_open(P, Open, Keys, Key0, Best0, At0, Key, Best, At) :-
    (   P =:= 0
    ->  Key = Key0,
        Best = Best0,
        At = At0
    ;   arg(P, Open, A),
        arg(A, Keys, K),
        P1 is P - 1,
        (   K < Key0
        ->  min_open(P1, Open, Keys, K, A, P, Key, Best, At)
        ;   min_open(P1, Open, Keys, Key0, Best0, At0, Key, Best, At)
        )
    ).

%   place(!State, +Best, +Id, +Blame): put word Id in site Best (argument)
%   and update the sites that can change: when Id is used up, the sites
%   of its length that hold it lose it (drop_word/4), and the crossed
%   sites are filtered again (refilter/3).  No other site can change, so
%   none is looked at.  Blame is none, or for cbj b(Pruned, Depths,
%   Depth) (see blame_drop/3, blame_refilter/3).
place(State, Best, Id, Blame) :-
    State = s(_, _, Sites, Words, Counts, _, _, _),
    arg(Best, Sites, site(Vars, _, Neighbours, Same)),
    arg(Id, Words, Chars),
    Vars = Chars,
    count_node,
    arg(Id, Counts, C0),
    C is C0 - 1,
    setarg(Id, Counts, C),
    (   C =:= 0
    ->  drop_word(Same, Id, State, Blame)
    ;   true
    ),
    refilter(Neighbours, State, Blame).

%   drop_word(+Args, +Id, !State, +Blame): the open sites of Args whose
%   domain holds Id, just used up, lose it.  The word stays in the stored
%   domain and the key alone counts it out, which spares rebuilding a
%   domain per site of its length at nearly every step; live/3 drops such
%   words where a domain is read.  Id in a stored domain was live, as it
%   had a copy left until now.
drop_word([], _, _, _).
drop_word([A|As], Id, State, Blame) :-
    State = s(Keys, Domains, _, _, _, NSites, Filled, _),
    arg(A, Keys, K0),
    (   K0 =\= Filled,
        arg(A, Domains, D),
        memberchk(Id, D)
    ->  K is K0 - NSites,
        setarg(A, Keys, K),
        blame_drop(Blame, A)
    ;   true
    ),
    drop_word(As, Id, State, Blame).

%   refilter(+Args, !State, +Blame): the open sites of Args have new
%   letters; their domains keep the words that still fit, with a copy
%   left.  A domain as long as before is the same (a subset), so it stays.
refilter([], _, _).
refilter([A|As], State, Blame) :-
    State = s(Keys, Domains, Sites, Words, Counts, NSites, Filled, _),
    arg(A, Keys, K0),
    (   K0 =\= Filled
    ->  arg(A, Domains, D0),
        arg(A, Sites, site(Vars, _, _, _)),
        fitting(D0, Vars, Words, Counts, D),
        length(D, Size),
        K is Size * NSites + K0 mod NSites,
        (   K =:= K0
        ->  true
        ;   setarg(A, Keys, K),
            setarg(A, Domains, D),
            blame_refilter(Blame, A)
        )
    ;   true
    ),
    refilter(As, State, Blame).

%   live(+Stored, +Counts, -Domain): a stored domain without the words
%   used up since it was last filtered (see drop_word/4).
live([], _, []).
live([Id|Ids], Counts, Domain) :-
    (   arg(Id, Counts, C),
        C > 0
    ->  Domain = [Id|Domain1]
    ;   Domain = Domain1
    ),
    live(Ids, Counts, Domain1).

%   value_order(+Values, +Domain, +Best, +State, -Ids): the words of
%   Domain, the chosen site's, in the order they are tried.
value_order(domain, Domain, _, _, Domain).
value_order(least_constraining, Domain, Best, State, Ids) :-
    State = s(_, _, Sites, Words, _, _, _, _),
    arg(Best, Sites, site(_, Crossings, _, _)),
    open_tallies(Crossings, State, Tallies),
    maplist(lcv_keyed(Tallies, Words), Domain, Keyed),
    keysort(Keyed, Sorted),
    pairs_values(Sorted, Ids).

%   open_tallies(+Crossings, +State, -Tallies): for each crossing with a
%   site T still open, t(I, Size, Tally): position I in the chosen site,
%   the size of D(T) and Letter-Count for T's letters at the crossing.
open_tallies([], _, []).
open_tallies([x(I, T, J, _)|Xs], State, Tallies) :-
    State = s(Keys, Domains, _, Words, Counts, _, Filled, _),
    A is T + 1,
    (   arg(A, Keys, K),
        K =\= Filled
    ->  arg(A, Domains, Stored),
        live(Stored, Counts, DT),
        maplist(letter_at(J, Words), DT, Letters),
        msort(Letters, Sorted),
        clumped(Sorted, Tally),
        length(DT, Size),
        Tallies = [t(I, Size, Tally)|Rest]
    ;   Tallies = Rest
    ),
    open_tallies(Xs, State, Rest).

lcv_keyed(Tallies, Words, Id, Cost-Id) :-
    arg(Id, Words, Chars),
    foldl(ruled_out(Chars), Tallies, 0, Cost).

%   ruled_out(+Chars, +Tally, +Cost0, -Cost): add the words of D(T) whose
%   letter at the crossing differs from the one Chars puts there.
ruled_out(Chars, t(I, Size, Tally), Cost0, Cost) :-
    nth0(I, Chars, Letter),
    (   memberchk(Letter-Same, Tally)
    ->  true
    ;   Same = 0
    ),
    Cost is Cost0 + Size - Same.


%   cbj(!State): mrv's search with conflict-directed backjumping
%   (docs/search.md#cbj).  Pruned holds at each site's
%   argument the ordered set of depths that pruned its domain, Copies per
%   word the depths that placed a copy of it (both setarg/3, undone on
%   backtracking).  A level that finally fails leaves its conflict set in
%   the global variable domains_conflict (this module's own) for its
%   parent to read; kernel's counter leaves counts the solutions, so a
%   level sees whether any was found below it.
cbj(State) :-
    State = s(_, _, _, _, Counts, NSites, _, _),
    functor(Counts, _, N),
    length(Empty, N),
    maplist(=([]), Empty),
    Copies =.. [copies|Empty],
    length(Unpruned, NSites),
    maplist(=([]), Unpruned),
    Pruned =.. [pruned|Unpruned],
    cbj_level(NSites, State, c(Pruned, Copies), 0).

%   cbj_level(+Left, !State, +C, +Depth): fill the chosen site at Depth;
%   succeeds once per solution below.
cbj_level(0, _, _, _) :-
    !,
    count_leaf.
cbj_level(Left, State, C, Depth) :-
    choose(Left, State, Best, Key),
    State = s(_, Domains, _, _, Counts, NSites, _, _),
    C = c(Pruned, _),
    (   Key < NSites                    % an empty domain
    ->  count_backtrack,
        arg(Best, Pruned, Set),
        nb_setval(domains_conflict, Set),
        fail
    ;   counter(leaves, Before),
        arg(Best, Domains, Stored),
        live(Stored, Counts, Domain),
        cbj_words(Domain, l(Best, Left, State, C, Depth, Before), [])
    ).

%   cbj_words(+Ids, +Level, +Conflicts): try each word in turn; after a
%   subtree without solutions that did not involve Depth, fail at once
%   (the child's set stays in domains_conflict).
cbj_words([], l(Best, _, _, c(Pruned, _), Depth, Before), Conflicts) :-
    counter(leaves, Now),
    (   Now > Before                    % stay chronological after a solution
    ->  Last is Depth - 1,
        numlist_or_empty(0, Last, Set)
    ;   arg(Best, Pruned, Set0),
        ord_union(Conflicts, Set0, Set)
    ),
    nb_setval(domains_conflict, Set),
    fail.
cbj_words([Id|Ids], Level, Conflicts) :-
    (   cbj_place(Id, Level)
    ;   Level = l(_, _, _, _, Depth, Before),
        counter(leaves, Now),
        (   Now > Before
        ->  Conflicts1 = Conflicts
        ;   nb_getval(domains_conflict, Child),
            ord_memberchk(Depth, Child),
            ord_del_element(Child, Depth, Rest),
            ord_union(Conflicts, Rest, Conflicts1)
        ),
        cbj_words(Ids, Level, Conflicts1)
    ).

numlist_or_empty(Low, High, List) :-
    findall(X, between(Low, High, X), List).

cbj_place(Id, l(Best, Left, State, C, Depth, _)) :-
    C = c(Pruned, Copies),
    arg(Id, Copies, Ds0),
    ord_add_element(Ds0, Depth, Ds),
    setarg(Id, Copies, Ds),
    place(State, Best, Id, b(Pruned, Ds, Depth)),
    Left1 is Left - 1,
    Depth1 is Depth + 1,
    cbj_level(Left1, State, C, Depth1).

%   blame_drop(+Blame, +A), blame_refilter(+Blame, +A): cbj's blame for a
%   domain that shrank: when the word just placed was used up and left
%   it, every depth that placed a copy of it (blaming the last copy alone
%   would lose solutions); else the depth of this placement.  drop_word/4
%   runs before refilter/3, so a crossed site that lost the used-up word
%   is blamed on the copies (Depths holds Depth too).
blame_drop(none, _).
blame_drop(b(Pruned, Ds, _), A) :-
    arg(A, Pruned, P0),
    ord_union(P0, Ds, P),
    setarg(A, Pruned, P).

blame_refilter(none, _).
blame_refilter(b(Pruned, _, Depth), A) :-
    arg(A, Pruned, P0),
    ord_add_element(P0, Depth, P),
    setarg(A, Pruned, P).
