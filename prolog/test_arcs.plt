/*  Tests of arcs.pl's two forms of revision: the C kernel (arcs_kernel.c,
    when it is built: kernel_form(c)) against arcs.pl's own predicates, the
    specification.  Each test builds one net over a dictionary of random
    words, makes a twin of it that revises in Prolog (Kernel none), changes
    both alike and checks that they agree: the same outcome (a wipe-out or
    not), domains, weights and, per link, live letters.  Every kind of
    source is reached: a whole domain, a few words, one word, one word lost
    since the last revision, many lost.

    Run from the repository root:

        swipl -g run_tests -t halt prolog/test_arcs.plt

    (tests/test_prolog_kernel.py compares whole searches of the two forms.)
*/

:- use_module(arcs).
:- use_module(kernel).
:- use_module(layout).
:- use_module(library(assoc)).
:- use_module(library(pairs)).
:- use_module(library(random)).

                 /*******************************
                 *            HELPERS           *
                 *******************************/

%   A 4x4 board with two corners black: sites of 3 and 4 letters.
board_sites([ [0-0, 0-1, 0-2], [1-0, 1-1, 1-2, 1-3], [2-0, 2-1, 2-2, 2-3],
              [3-1, 3-2, 3-3], [0-0, 1-0, 2-0], [0-1, 1-1, 2-1, 3-1],
              [0-2, 1-2, 2-2, 3-2], [1-3, 2-3, 3-3] ]).

%   nets(+Seed, -NetP, -NetK): a net over random words of 3 and 4 letters
%   (400 of 4: domains of several 64-bit words), NetK as net/6 makes it,
%   NetP its twin revising in Prolog.
nets(Seed, NetP, NetK) :-
    reset_counters,
    set_random(seed(Seed)),
    random_words(3, 150, Threes),
    random_words(4, 400, Fours),
    Key is 900 + Seed,
    load_words(Key, [3-Threes, 4-Fours]),
    dictionary(Key, Tables, Copies),
    board_sites(Sites),
    layout(Sites, [], Board, Arcs, Crossings),
    net(Tables, Copies, Board, Arcs, Crossings, NetK),
    net_sibling(NetK, NetP),
    setarg(11, NetP, none).

random_words(L, N, Words) :-
    length(Words0, N),
    maplist(random_word(L), Words0),
    sort(Words0, Words).

random_word(L, Word) :-
    length(Codes, L),
    maplist(random_letter, Codes),
    string_codes(Word, Codes).

random_letter(Code) :-
    random_between(0'a, 0'j, Code).

%   load_words(+Key, +ByLength): ByLength pairs L-Words (distinct, sorted).
load_words(Key, ByLength) :-
    maplist(words_table, ByLength, Tables),
    load_dictionary(Key, Tables).

words_table(L-Words, t(L, Words, Copies, Positions)) :-
    length(Words, N),
    length(Copies, N),
    maplist(=(1), Copies),
    Last is L - 1,
    numlist(0, Last, Ps),
    maplist(position_pairs(Words), Ps, Positions).

position_pairs(Words, P, Pairs) :-
    foldl(word_bit(P), Words, Bits, 0, _),
    keysort(Bits, Sorted),
    group_pairs_by_key(Sorted, Groups),
    maplist(code_mask, Groups, Pairs).

word_bit(P, Word, Code-K, K, K1) :-
    P1 is P + 1,
    string_code(P1, Word, Code),
    K1 is K + 1.

code_mask(Code-Ks, Code-Mask) :-
    foldl(set_bit, Ks, 0, Mask).

set_bit(K, M0, M) :-
    M is M0 \/ (1 << K).

%   first_revisions(+Seeds, +Low-High, -Kinds): per seed and site, the
%   site's domain cut to a random subset of Low..High words, then
%   propagated from it in both forms; Kinds the kinds of source seen.
first_revisions(Seeds, Low-High, Kinds) :-
    findall(Kind,
            ( between(1, Seeds, Seed),
              nets(Seed, NetP, NetK),
              sites(NetP, Sites),
              member(S, Sites),
              subset_domain(NetP, S, Low-High, D),
              propagated(NetP, NetK, S, D, Kind) ),
            Kinds0),
    sort(Kinds0, Kinds).

%   later_revisions(+Seeds, +Lost): per seed and site, as
%   first_revisions/3 from 30-60 words, then again with Lost words fewer.
later_revisions(Seeds, Lost) :-
    forall(( between(1, Seeds, Seed),
             nets(Seed, NetP, NetK),
             sites(NetP, Sites),
             member(S, Sites),
             subset_domain(NetP, S, 30-60, D),
             propagated(NetP, NetK, S, D, _)
           ),
           (   S1 is S + 1,
               arg(1, NetP, Dom),
               arg(S1, Dom, D1),
               members(D1, Ks, []),
               random_permutation(Ks, Shuffled),
               length(Gone, Lost),
               append(Gone, _, Shuffled)
           ->  foldl(clear_bit, Gone, D1, D2),
               propagated(NetP, NetK, S, D2, _)
           ;   true                    % the domain shrank below Lost
           )).

clear_bit(K, D0, D) :-
    D is D0 /\ \ (1 << K).

subset_domain(Net, S, Low-High, D) :-
    S1 is S + 1,
    arg(1, Net, Dom),
    arg(S1, Dom, D0),
    members(D0, Ks, []),
    length(Ks, N),
    Most is min(High, N),
    Low =< Most,
    random_between(Low, Most, Count),
    random_permutation(Ks, Shuffled),
    length(Kept, Count),
    append(Kept, _, Shuffled),
    foldl(set_bit, Kept, 0, D).

%   propagated(+NetP, +NetK, +S, +D, -Kind): site S's domain set to D and
%   propagated in both nets, which must agree after it; Kind the source
%   the revision read (as arcs.pl's source/8 names it).  Succeeds either
%   way, wipe-out or not; the changes stay (on success).
propagated(NetP, NetK, S, D, Kind) :-
    S1 is S + 1,
    arg(9, NetP, Sup),
    arg(S1, Sup, Last),
    arg(1, NetP, DomP),
    setarg(S1, DomP, D),
    source_kind(Last, D, Kind),
    outcome(propagate([S], NetP), OutP),
    arg(1, NetK, DomK),
    setarg(S1, DomK, D),
    outcome(propagate([S], NetK), OutK),
    assertion(OutP == OutK),
    (   OutP == true
    ->  same_nets(NetP, NetK)
    ;   setarg(S1, DomP, D),            % undone by the failure
        setarg(S1, DomK, D),
        same_weights(NetP, NetK)
    ).

outcome(Goal, Outcome) :-
    (   call(Goal)
    ->  Outcome = true
    ;   Outcome = false
    ).

source_kind(Last, D, Kind) :-
    Count is popcount(D),
    (   Last = sup(L, _),
        popcount(L) - Count =:= 1
    ->  Kind = lost
    ;   Count =:= 1
    ->  Kind = word
    ;   Count =< 16
    ->  Kind = few
    ;   Kind = domain
    ).

%   walk(+NetP, +NetK, +Steps): up to Steps times, a random word of a random
%   open site placed in both nets (place/3), which must agree.
walk(_, _, 0) :-
    !.
walk(NetP, NetK, Steps) :-
    arg(2, NetP, Open),
    sites(NetP, Sites),
    include(open_site(Open), Sites, Opens),
    (   Opens == []
    ->  true
    ;   random_member(S, Opens),
        S1 is S + 1,
        arg(1, NetP, Dom),
        arg(S1, Dom, D),
        members(D, Ks, []),
        random_member(K, Ks),
        outcome(place(S, K, NetP), OutP),
        outcome(place(S, K, NetK), OutK),
        assertion(OutP == OutK),
        same_weights(NetP, NetK),
        (   OutP == true
        ->  same_nets(NetP, NetK)
        ;   true
        ),
        Steps1 is Steps - 1,
        walk(NetP, NetK, Steps1)
    ).

open_site(Open, S) :-
    S1 is S + 1,
    arg(S1, Open, true).

same_weights(NetP, NetK) :-
    arg(4, NetP, WP),
    arg(4, NetK, WK),
    assertion(WP == WK).

%   same_nets(+NetP, +NetK): the same domains, open sites, weights, copies
%   left, and per site the same last source domain and live letters.
same_nets(NetP, NetK) :-
    forall(member(A, [1, 2, 3, 4]),
           ( arg(A, NetP, XP),
             arg(A, NetK, XK),
             assertion(XP == XK) )),
    arg(9, NetP, SupP),
    arg(9, NetK, SupK),
    arg(11, NetK, kernel(_)),
    arcs_codes(NetK, Codes),
    SupP =.. [_|SP],
    SupK =.. [_|SK],
    maplist(same_sup(Codes), SP, SK).

same_sup(Codes, SupP, SupK) :-
    (   SupP == none
    ->  assertion(SupK == none)
    ;   SupP = sup(DP, LivesP),
        SupK = sup(DK, LivesK),
        assertion(DP == DK),
        maplist(entry_codes, LivesP, CodesP),
        maplist(live_codes(Codes), LivesK, CodesK),
        assertion(CodesP == CodesK)
    ).

entry_codes(Entries, Codes) :-
    maplist(arg(1), Entries, Codes0),
    sort(Codes0, Codes).

live_codes(Codes, Live, LiveCodes) :-
    findall(Code, ( nth1(A, Codes, Code), Live /\ (1 << A) =\= 0 ), LiveCodes0),
    sort(LiveCodes0, LiveCodes).

%   The alphabet of the net's lengths, ascending: letter A is the A-th.
arcs_codes(Net, Codes) :-
    arg(6, Net, Lengths),
    arg(8, Net, Tables),
    Lengths =.. [_|LengthList],
    arcs:alphabet(Tables, LengthList, alphabet(_, Assoc)),
    assoc_to_keys(Assoc, Codes).

:- begin_tests(arcs).

test(form_is_known, true(Known == true)) :-
    kernel_form(Form),
    (   Form == c
    ->  Known = true
    ;   Form = prolog(Why),
        atom(Why)
    ->  Known = true
    ;   Known = false
    ).

test(prolog_twin_revises_in_prolog, true(Kernel == none)) :-
    nets(1, NetP, _),
    arg(11, NetP, Kernel).

:- end_tests(arcs).

:- begin_tests(arcs_kernel, [condition(kernel_form(c))]).

test(kernel_revises, true(Kernel = kernel(_))) :-
    nets(1, _, NetK),
    arg(11, NetK, Kernel).

%   A length no word has: no letters there, the same revisions.
test(a_length_without_words, true(OutP-Kernel == OutK-true)) :-
    reset_counters,
    set_random(seed(3)),
    random_words(3, 150, Threes),
    load_words(950, [3-Threes]),
    dictionary(950, Tables, Copies),
    board_sites(Sites),
    layout(Sites, [], Board, Arcs, Crossings),
    net(Tables, Copies, Board, Arcs, Crossings, NetK),
    net_sibling(NetK, NetP),
    setarg(11, NetP, none),
    ( arg(11, NetK, kernel(_)) -> Kernel = true ; Kernel = false ),
    sites(NetP, All),
    outcome(propagate(All, NetP), OutP),
    outcome(propagate(All, NetK), OutK).

%   A net's kernel is freed once no term refers to it (atom GC).
test(kernels_are_freed, true(After =< Before)) :-
    garbage_collect_atoms,
    arcs_kernel:kernel_bytes(Before),
    forall(between(1, 20, Seed), nets(Seed, _, _)),
    arcs_kernel:kernel_bytes(Made),
    assertion(Made > Before),
    garbage_collect_atoms,
    arcs_kernel:kernel_bytes(After).

%   A domain longer than its length's words is refused, not read past.
test(domain_too_long, error(domain_error(domain_of_its_length, _))) :-
    nets(1, _, NetK),
    arg(1, NetK, Dom),
    D is 1 << 5000,
    setarg(1, Dom, D),
    propagate([0], NetK).

%   The kernel reads a few words' letters up to as many words as arcs.pl.
test(few_words_alike, true(N == M)) :-
    arcs_kernel:few_words(N),
    arcs:few_words(M).

test(not_a_kernel, error(type_error(arcs_kernel, foo))) :-
    arcs_kernel:propagate(foo, [], dom, open, sup, _, _).

%   A first revision from a domain of many words, a few, one.
test(first_revision_from_a_domain, true(Kinds == [domain])) :-
    first_revisions(20, 17-400, Kinds).

test(first_revision_from_a_few_words, true(Kinds == [few])) :-
    first_revisions(20, 2-16, Kinds).

test(first_revision_from_one_word, true(Kinds == [word])) :-
    first_revisions(20, 1-1, Kinds).

%   Later revisions: after one word went (lost), after many went.
test(revision_after_one_word_lost) :-
    later_revisions(20, 1).

test(revision_after_many_words_lost) :-
    later_revisions(20, 25).

%   Random walks down the search tree: place a word of a site, propagate.
test(random_walks) :-
    forall(between(1, 30, Seed),
           ( nets(Seed, NetP, NetK),
             walk(NetP, NetK, 8) )).

:- end_tests(arcs_kernel).
