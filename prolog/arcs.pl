/*  arcs: what the wdeg and valued families share.

    Specified in docs/search.md#wdeg (propagation, choice of site, placing
    a word), which docs/search.md#valued follows; this module mirrors
    pybridge/search/arcs.py step for step.  What follows in the comments
    is how, not what.

    A site's domain is a bitset, a (big) integer over the dictionary's words
    of its length: bit K is the word K of that length, in the order of the
    Python tables.  Per length the dictionary keeps the words (end to end in
    one string) and, for each position, the sorted list of Code-Mask pairs,
    Mask the words with letter Code there.

    The dictionary arrives once per process (load_dictionary_text/3, built by
    pybridge.bridge from pybridge.bitsets.tables) and lives in a global
    variable (kernel:remember/4), so a search reads it without copying.

    A search keeps its sites in one term, the net:

        net(Dom, Open, Left, Weights, Links, Lengths, ByLength, Tables, Sup,
            Dead, Kernel)

    Dom (per site its domain), Open (per site true or false), Left (per
    length the copies left of each word, or none), Sup (per site what it
    was last revised from, or none: see propagate/2) and Dead (per crossing
    and letter true once neither site has that letter there: see
    kept_live/7) change with setarg/3 and so come back for free on
    backtracking (wdeg's fills_alone/4, which sets domains back to those
    of a split, starts with no mark); Weights (per crossing) with
    nb_setarg/3, never undone.
    The rest is fixed: Links per site its arcs (as links/5 extends
    layout:layout/5's), Lengths per site its length, ByLength per length
    its sites, Tables the dictionary's, and Kernel none or, when the C
    kernel propagates (see kernel_form/1), kernel(Handle): Handle its
    copy of the masks that the links read and its room to propagate in.
    A family's state holds its net beside what the family adds.

    No I/O here.
*/

:- module(arcs,
          [ load_dictionary/2,          % +Key, +Tables
            load_dictionary_text/2,     % +Key, +Text
            load_dictionary_text/3,     % +Key, +Text, +Masks
            dictionary_loaded/1,        % +Key
            dictionary/3,               % +Key, -Tables, -Copies
            word/3,                     % +Words, +K, -Word
            members/3,                  % +Domain, -Ids, ?Tail
            net/6,                      % +Tables, +Copies, +Board, +Arcs, +Crossings, -Net
            net_sibling/2,              % +Net, -Sibling
            uniform/4,                  % +Name, +N, +X, -Term
            sites/2,                    % +Net, -Sites
            fill_board/2,               % +Net, +Board
            choose/3,                   % +Region, +Net, -Site
            place/3,                    % +Site, +K, +Net
            propagate/2,                % +Changed, +Net
            kernel_form/1               % -Form
          ]).

:- use_module(library(apply)).
:- use_module(library(error)).
:- use_module(library(lists)).
:- use_module(library(pairs)).
:- use_module(kernel, [count_backtrack/0, remember/4, remembered/2, recall/3]).

:- set_prolog_flag(optimise, true).     % arithmetic compiled inline: the hot loops are arithmetic

few_words(16).          % up to this many words, a revision reads their letters (whole_source/5)
kept_dictionaries(4).   % dictionaries kept loaded, most recently loaded first
mask_piece_bits(1024).  % bits per piece of a long mask (bridge.MASK_CHUNK)
max_code_span(4096).    % letters looked up by code in a term up to this span (by_code/2)
kernel_letters(62).     % the C kernel's live sets hold letters 1..62 (arcs_kernel.c)
kernel_memory(268435456). % bytes of the C kernels of past nets before an atom GC frees them

                 /*******************************
                 *         THE C KERNEL         *
                 *******************************/

%!  kernel_form(-Form) is det.
%
%   Which form revises: c when the C kernel does (prolog/arcs_kernel.c, a
%   foreign library that setup.sh builds beside this file), else
%   prolog(Why), this file's revision alone.  The kernel is loaded with
%   this file, when its build is here, loads, is newer than the
%   arcs_kernel.c beside it and was built from a file of that size (what
%   make and SWI-Prolog's .qlf files go by, at the cost of a look at the
%   files: a digest of the source would cost a library and a read at every
%   start), and CROSSWORD_PURE_PROLOG is unset (or 0).  Either form gives
%   the same search; a net whose alphabet has more than kernel_letters/1
%   letters, or with two crossings between two sites, revises in Prolog.

kernel_form(Form) :-
    kernel_state(Form).

:- dynamic kernel_state/1.

%   open_kernel(+Library): load the library (once per process; with the
%   built-ins, as library(shlib) would add milliseconds to every start).
open_kernel(Library) :-
    (   current_predicate(arcs_kernel:built_from/2)
    ->  true
    ;   open_shared_object(Library, Handle),
        call_shared_object_function(Handle, install_arcs_kernel)
    ).

load_kernel(Dir) :-
    kernel_state(Dir, State),
    retractall(kernel_state(_)),
    assertz(kernel_state(State)).

kernel_state(_, prolog('CROSSWORD_PURE_PROLOG is set')) :-
    getenv('CROSSWORD_PURE_PROLOG', Value),
    Value \== '',
    Value \== '0',
    !.
kernel_state(Dir, State) :-
    atomic_list_concat([Dir, '/arcs_kernel.so'], Library),  % not directory_file_path/3:
    atomic_list_concat([Dir, '/arcs_kernel.c'], Source),    % library(filesex) costs a start ~18 ms
    (   \+ exists_file(Library)
    ->  State = prolog('no build of arcs_kernel.c: ./setup.sh makes one where a C compiler is found')
    ;   catch(open_kernel(Library), _, fail)
    ->  (   arcs_kernel:built_from(Bytes, _),
            size_file(Source, Bytes),
            time_file(Source, Written),
            time_file(Library, Built),
            Built >= Written
        ->  State = c
        ;   State = prolog('the build of arcs_kernel.c is older than it: ./setup.sh rebuilds it')
        )
    ;   State = prolog('the build of arcs_kernel.c did not load')
    ).

:- prolog_load_context(directory, Dir),
   load_kernel(Dir).

                 /*******************************
                 *          DICTIONARIES        *
                 *******************************/

%!  load_dictionary(+Key:integer, +Tables:list(compound)) is det.
%
%   Keep the dictionary Tables under Key, replacing the least recently
%   loaded one when kept_dictionaries/1 are loaded already.  Each table is
%   t(Length, Words, Copies, Positions): Words the distinct words of that
%   length (bit K of a domain is the K-th, from 0), as a list of code
%   lists or strings or as one string of them all end to end (as they are
%   kept: one string is far cheaper to load and to keep than many), Copies
%   how many times each is listed, Positions per position the sorted
%   Code-Mask pairs.  A mask is an integer or a list of the pieces of one,
%   most significant first, each of mask_piece_bits/1 bits (converting text
%   to a number takes time quadratic in its digits).
%
%   ?- load_dictionary(7, [t(2, [`ab`, `ac`], [1, 1],
%                            [[0'a-3], [0'b-1, 0'c-2]])]).

load_dictionary(Key, Tables) :-
    must_be(integer, Key),
    foldl(longest, Tables, 1, Max),  % tables(none) for no word: a compound still
    length(TableArgs, Max),
    length(CopyArgs, Max),
    maplist(=(none), TableArgs),
    maplist(=(none), CopyArgs),
    TablesTerm =.. [tables|TableArgs],
    CopiesTerm =.. [copies|CopyArgs],
    maplist(store_table(TablesTerm, CopiesTerm), Tables),
    kept_dictionaries(Kept),
    remember(arcs_dictionary, Kept, Key, dictionary(TablesTerm, CopiesTerm)).

longest(t(L, _, _, _), Max0, Max) :-
    Max is max(Max0, L).

store_table(TablesTerm, CopiesTerm, t(L, Words, Copies, Positions)) :-
    end_to_end(Words, All),
    length(Copies, N),
    string_length(All, Chars),
    (   Chars =:= L * N
    ->  true
    ;   domain_error(words_of_length(L), Words)
    ),
    Full is (1 << N) - 1,
    maplist(position_masks, Positions, Masks),
    MasksTerm =.. [masks|Masks],
    setarg(L, TablesTerm, table(words(L, N, All, none), Full, MasksTerm)),
    CountsTerm =.. [left|Copies],
    setarg(L, CopiesTerm, CountsTerm).

end_to_end(Words, All) :-
    (   string(Words)
    ->  All = Words
    ;   maplist(codes_string, Words, Strings),
        atomics_to_string(Strings, All)
    ).

position_masks(Pairs0, Pairs) :-
    maplist(pair_mask, Pairs0, Pairs).

pair_mask(Code-Mask0, Code-Mask) :-
    (   integer(Mask0)
    ->  Mask = Mask0
    ;   foldl(shift_in, Mask0, 0, Mask)
    ).

shift_in(Piece, Mask0, Mask) :-
    mask_piece_bits(Bits),
    Mask is (Mask0 << Bits) \/ Piece.

codes_string(Codes, String) :-
    string_codes(String, Codes).

%!  word(+Words, +K:integer, -Word:string) is det.
%
%   The word K (from 0) of a words(Length, Count, All, Letters) term, All
%   the words end to end.  (sub_string/5 takes constant time here;
%   string_code/3 on All would take time linear in its length.)

word(words(L, _, All, _), K, Word) :-
    Start is K * L,
    sub_string(All, Start, L, _, Word).

%   letters(+Words, -Letters): the letters of the words of a words/4 term
%   by position: letters(At1, ..., AtL), argument K + 1 of AtP the code at
%   P of word K.  A revision from a few words reads their letters here
%   (see count_source/6) rather than cutting each word out of All.  Built
%   when first asked for (most searches never ask: building it for every
%   length of a big word list would slow its loading by half) and kept in
%   Words with nb_setarg/3, so it lasts as long as the dictionary.
letters(Words, Letters) :-
    arg(4, Words, Letters0),
    (   Letters0 \== none
    ->  Letters = Letters0
    ;   Words = words(L, N, All, _),
        functor(Letters1, letters, L),
        forall(between(1, L, P), ( functor(At, at, N), nb_setarg(P, Letters1, At) )),
        string_codes(All, Codes),
        letters_from(Codes, 1, 1, L, Letters1),
        nb_setarg(4, Words, Letters1),
        arg(4, Words, Letters)           % the copy nb_setarg/3 keeps
    ).

%   letters_from(+Codes, +K1, +P, +L, +Letters): the codes of the words
%   from word K1 - 1's letter P on, put in Letters (with nb_setarg/3: small
%   integers, nothing trailed).
letters_from([], _, _, _, _).
letters_from([Code|Codes], K1, P, L, Letters) :-
    arg(P, Letters, At),
    nb_setarg(K1, At, Code),
    (   P =:= L
    ->  K2 is K1 + 1,
        letters_from(Codes, K2, 1, L, Letters)
    ;   P1 is P + 1,
        letters_from(Codes, K1, P1, L, Letters)
    ).

%!  load_dictionary_text(+Key:integer, +Text:string) is det.
%!  load_dictionary_text(+Key:integer, +Text:string, +Masks:list(integer)) is det.
%
%   load_dictionary/2 from one string, as pybridge.bridge sends it: string
%   functions split it, so nothing in it is read as a term.  Per table, a
%   line "Length Count", a line of the Count words end to end, a line of the
%   copies (empty when every word is listed once) and a line per position
%   of space-separated pairs.  A pair is Code=Pieces, Pieces the
%   comma-separated hex pieces of the mask, most significant first; or
%   Code alone, its mask then the next of Masks (integers the bridge puts
%   whole, in the order of the pairs).
%
%   ?- load_dictionary_text(7, "2 2\nabac\n\n97=0x3\n98=0x1 99=0x2\n").
%   ?- load_dictionary_text(7, "2 2\nabac\n\n97\n98 99\n", [3, 1, 2]).

load_dictionary_text(Key, Text) :-
    load_dictionary_text(Key, Text, []).

load_dictionary_text(Key, Text, Masks) :-
    must_be(string, Text),
    must_be(list(integer), Masks),
    split_string(Text, "\n", "", Lines),
    text_tables(Lines, Tables, Masks, []),
    load_dictionary(Key, Tables).

text_tables([""], [], Masks, Masks) :-  % the text ends with a line break
    !.
text_tables([Header, Words, CopiesLine|Lines1], [t(L, Words, Copies, Positions)|Tables],
            Masks0, Masks) :-
    split_string(Header, " ", "", [LengthText, CountText]),
    number_string(L, LengthText),
    number_string(N, CountText),
    text_copies(CopiesLine, N, Copies),
    length(PositionLines, L),
    append(PositionLines, Lines2, Lines1),
    foldl(text_position, PositionLines, Positions, Masks0, Masks1),
    text_tables(Lines2, Tables, Masks1, Masks).

text_copies("", N, Copies) :-
    !,
    length(Copies, N),
    maplist(=(1), Copies).
text_copies(Line, _, Copies) :-
    split_string(Line, " ", "", Texts),
    maplist(number_string, Copies, Texts).

text_position(Line, Pairs, Masks0, Masks) :-
    split_string(Line, " ", "", PairTexts),
    foldl(text_pair, PairTexts, Pairs, Masks0, Masks).

text_pair(Text, Code-Mask, Masks0, Masks) :-
    split_string(Text, "=", "", [CodeText|Rest]),
    number_string(Code, CodeText),
    (   Rest == []
    ->  Masks0 = [Mask|Masks]
    ;   Rest = [PiecesText],
        split_string(PiecesText, ",", "", PieceTexts),
        maplist(number_string, Mask, PieceTexts),
        Masks = Masks0
    ).

%!  dictionary_loaded(+Key:integer) is semidet.
%
%   True when a dictionary is kept under Key (in this thread: global
%   variables are per thread).

dictionary_loaded(Key) :-
    remembered(arcs_dictionary, Key).

%!  dictionary(+Key:integer, -Tables, -Copies) is det.
%
%   The dictionary kept under Key, as load_dictionary/2 keeps it: per
%   length (an argument) table(words(L, N, All, Letters), Full, Masks) or
%   none (Letters: see letters/2), and the copies of each word.

dictionary(Key, Tables, Copies) :-
    recall(arcs_dictionary, Key, dictionary(Tables, Copies)).

%!  members(+Domain:integer, -Ids:list(integer), ?Tail) is det.
%
%   The indices of the set bits of Domain, ascending, as the difference
%   list Ids-Tail.  Halves a big integer until the pieces are small, so
%   the work stays near linear (unless there are only a few bits to take
%   off one by one).

members(Domain, Ids, Tail) :-
    (   popcount(Domain) =< 16
    ->  peel_members(Domain, 0, Ids, Tail)
    ;   members(Domain, 0, Ids, Tail)
    ).

%   A few words: take the lowest off, one at a time, shifting it out (one
%   operation on a number that gets shorter, where D /\ (D - 1) is two on
%   the whole of it); Offset is the index of bit 0 of D.
peel_members(0, _, Ids, Ids) :-
    !.
peel_members(D, Offset, [K|Ids], Tail) :-
    Low is lsb(D),
    K is Offset + Low,
    D1 is D >> (Low + 1),
    Offset1 is K + 1,
    peel_members(D1, Offset1, Ids, Tail).

members(0, _, Ids, Ids) :-
    !.
members(D, Offset, Ids, Tail) :-
    D < 1 << 60,
    !,
    small_members(D, Offset, Ids, Tail).
members(D, Offset, Ids, Tail) :-
    Half is (msb(D) + 1) // 2,
    Low is D /\ ((1 << Half) - 1),
    High is D >> Half,
    Offset1 is Offset + Half,
    members(Low, Offset, Ids, Middle),
    members(High, Offset1, Middle, Tail).

small_members(0, _, Ids, Ids) :-
    !.
small_members(D, Offset, [K|Ids], Tail) :-
    Low is lsb(D),
    K is Offset + Low,
    D1 is D /\ (D - 1),
    small_members(D1, Offset, Ids, Tail).

                 /*******************************
                 *             NETS             *
                 *******************************/

%!  net(+Tables, +Copies, +Board:list(list(var)), +Arcs:list(list(compound)),
%!      +Crossings:integer, -Net) is det.
%
%   The net of the sites of Board over a dictionary's Tables and Copies
%   (dictionary/3's) before any search: every site open, with the words
%   of its length that have its predefined letters and no support, every
%   weight 1, every copy left.  Board, Arcs and Crossings are
%   layout:layout/5's (the predefined letters are bound in Board already).

net(Tables, Copies, Board, Arcs, Crossings, Net) :-
    maplist(length, Board, LengthList),
    Lengths =.. [lengths|LengthList],
    withouts(Tables, LengthList, Withouts),
    alphabet(Tables, LengthList, Alphabet),
    Letters = Alphabet-Tables-Withouts,
    maplist(links(Letters, LengthList), LengthList, Arcs, LinkLists),
    Links =.. [links|LinkLists],
    maplist(initial_domain(Tables), Board, Domains),
    Dom =.. [dom|Domains],
    sites_by_length(LengthList, Tables, ByLength),
    used_copies(Copies, ByLength, Left),
    uniform(weights, Crossings, 1, Weights),
    alphabet_size(Alphabet, Size),
    Flags is Crossings * Size,
    net_kernel(Tables, LengthList, Arcs, Alphabet, Kernel),
    fresh(Dom, Left, Weights, fixed(Links, Lengths, ByLength, Tables, Flags, Kernel), Net).

%   net_kernel(+Tables, +Lengths, +Arcs, +Alphabet, -Kernel): the net's C
%   kernel (see kernel_form/1), or none when it does not run, the alphabet
%   has more letters than its live sets hold or a site crosses another
%   twice (arcs_kernel.c's kernel_net/5).
net_kernel(Tables, Lengths, Arcs, alphabet(Size, Assoc), Kernel) :-
    (   kernel_form(c),
        kernel_letters(Most),
        Size =< Most,
        assoc_to_keys(Assoc, Codes),
        kernel_room,
        arcs_kernel:kernel_net(Tables, Lengths, Arcs, Codes, Handle)
    ->  Kernel = kernel(Handle)
    ;   Kernel = none
    ).

%   kernel_room: the memory of the C kernels of nets no longer used given
%   back, when it is over kernel_memory/1.  A kernel is a blob, freed when
%   atom garbage collection finds no term referring to it; SWI-Prolog runs
%   one after so many new atoms, whatever the blobs hold.
kernel_room :-
    arcs_kernel:kernel_bytes(Bytes),
    kernel_memory(Most),
    (   Bytes > Most
    ->  garbage_collect_atoms
    ;   true
    ).

%!  net_sibling(+Net, -Sibling) is det.
%
%   A net for the same sites as Net before any search (its domains and
%   copies, which no search has touched yet, copied; every weight 1); it
%   shares Net's fixed arguments.

net_sibling(net(Dom0, _, Left0, Weights0, Links, Lengths, ByLength, Tables, _, Dead0,
                Kernel),
            Net) :-
    duplicate_term(Dom0-Left0, Dom-Left),
    functor(Weights0, _, Crossings),
    uniform(weights, Crossings, 1, Weights),
    functor(Dead0, _, Flags),
    fresh(Dom, Left, Weights, fixed(Links, Lengths, ByLength, Tables, Flags, Kernel), Net).

fresh(Dom, Left, Weights, fixed(Links, Lengths, ByLength, Tables, Flags, Kernel), Net) :-
    Net = net(Dom, Open, Left, Weights, Links, Lengths, ByLength, Tables, Sup, Dead,
              Kernel),
    functor(Dom, _, N),
    uniform(open, N, true, Open),
    uniform(sup, N, none, Sup),
    uniform(dead, Flags, false, Dead).

%!  uniform(+Name:atom, +N:integer, +X, -Term) is det.
%
%   Name with N arguments, each X (an atom or a small integer: they are
%   set with nb_setarg/3).

uniform(Name, N, X, Term) :-
    functor(Term, Name, N),
    forall(between(1, N, I), nb_setarg(I, Term, X)).

%!  sites(+Net, -Sites:list(integer)) is det.
%
%   Every site of Net, in site order (from 0).

sites(Net, Sites) :-
    arg(1, Net, Dom),
    functor(Dom, _, N),
    (   N =:= 0
    ->  Sites = []
    ;   Last is N - 1,
        numlist(0, Last, Sites)
    ).

%!  fill_board(+Net, +Board:list(list(var))) is det.
%
%   Bind every site of Board to the word of its domain (one word each).

fill_board(net(Dom, _, _, _, _, Lengths, _, Tables, _, _, _), Board) :-
    foldl(fill_site(Dom, Lengths, Tables), Board, 1, _).

fill_site(Dom, Lengths, Tables, Vars, S1, S2) :-
    arg(S1, Dom, D),
    K is msb(D),
    word_of(S1, K, Lengths, Tables, Word),
    string_chars(Word, Vars),
    S2 is S1 + 1.

%   initial_domain(+Tables, +Vars, -Domain): the words of the site's
%   length that have the predefined letters (the bound variables of the
%   site: nothing else is bound before the search).
initial_domain(Tables, Vars, Domain) :-
    length(Vars, L),
    (   table(Tables, L, table(_, Full, Masks))
    ->  foldl(given_letter(Masks), Vars, Full-1, Domain-_)
    ;   Domain = 0
    ).

given_letter(Masks, Var, D0-P, D-P1) :-
    P1 is P + 1,
    (   nonvar(Var)
    ->  char_code(Var, Code),
        arg(P, Masks, Pairs),
        (   memberchk(Code-Mask, Pairs)
        ->  D is D0 /\ Mask
        ;   D = 0
        )
    ;   D = D0
    ).

table(Tables, L, Table) :-
    functor(Tables, _, Max),
    L >= 1,
    L =< Max,
    arg(L, Tables, Table),
    Table \== none.

%   used_copies(+Copies, +ByLength, -Left): a copy of the copies of each
%   word for the lengths some site has (none for the others), to count
%   down as words are placed.
used_copies(Copies, ByLength, Left) :-
    Copies =.. [Name|Counts],
    ByLength =.. [_|Sites],
    maplist(used_count, Counts, Sites, LeftCounts),
    Left =.. [Name|LeftCounts].

used_count(Counts, Sites, Left) :-
    (   Sites == []
    ->  Left = none
    ;   duplicate_term(Counts, Left)
    ).

%   sites_by_length(+Lengths, +Tables, -ByLength): per length (an argument
%   of the arity of Tables) the sites of that length, ascending.
sites_by_length(Lengths, Tables, ByLength) :-
    functor(Tables, _, Max),
    length(Args, Max),
    ByLength =.. [by_length|Args],
    foldl(site_length_pair, Lengths, Pairs, 0, _),
    keysort(Pairs, Sorted),
    group_pairs_by_key(Sorted, Groups),
    maplist(by_length_arg(ByLength), Groups),
    maplist(empty_if_unbound, Args).

site_length_pair(L, L-S, S, S1) :-
    S1 is S + 1.

by_length_arg(ByLength, L-Sites) :-
    functor(ByLength, _, Max),
    (   L =< Max
    ->  arg(L, ByLength, Sites)
    ;   true
    ).

empty_if_unbound(X) :-
    (   var(X)
    ->  X = []
    ;   true
    ).

%   links(+Tables, +Lengths, +L, +Arcs, -Links): each x(I, T, J, X)
%   of a site of length L (position I here is position J of site T,
%   crossing X) as l(I, T, J, X, Joined, ByCode): Joined what propagation
%   reads, per letter of T at J (There, its Code-Mask pairs), in order of
%   code, and ByCode the same entries by code (by_code/2).  An entry is
%   j(Code, Here, Mask, Residue, Without), Here the words of this site with
%   that letter at I (0 when none has it), Mask T's words with it at J and
%   Without T's other words (so that taking them away is one AND of
%   positive numbers, where /\ \Mask works on a negative one).  Residue is a
%   word of Here, the last one found in the source domain, kept with
%   nb_setarg/3: while it stays in the domain the letter has support
%   without a big AND (AC-3 with residual supports; it only saves work,
%   never changes a result).  Without such a word it is the number of words
%   of this length, a bit no domain has.  A length without words has no
%   letters.
links(Tables, Lengths, L, Arcs, Links) :-
    maplist(link(Tables, Lengths, L), Arcs, Links).

%   withouts(+Tables, +Lengths, -Withouts): per length of a site (an
%   argument of the arity of Tables; none for the others), per position
%   the Code-Without pairs of its table, Without the words without that
%   letter there: made once for all the links that read them.
withouts(Tables, Lengths, Withouts) :-
    functor(Tables, _, Max),
    functor(Withouts, withouts, Max),
    sort(Lengths, Used),
    forall(between(1, Max, L), nb_setarg(L, Withouts, none)),
    foldl(length_withouts(Tables), Used, Withouts, Withouts).

length_withouts(Tables, L, W, W) :-
    (   table(Tables, L, table(_, Full, Masks))
    ->  Masks =.. [_|Positions],
        maplist(without_pairs(Full), Positions, Lists),
        Term =.. [positions|Lists],
        setarg(L, W, Term)
    ;   true
    ).

without_pairs(Full, Pairs, Withouts) :-
    maplist(without_pair(Full), Pairs, Withouts).

without_pair(Full, C-M, C-W) :-
    W is Full xor M.

link(Alphabet-Tables-Withouts, Lengths, L, x(I, T, J, X), l(I, T, J, X, Joined, ByCode)) :-
    nth0(T, Lengths, LT),
    position_pairs(Tables, L, I, Here),
    position_pairs(Tables, LT, J, There),
    (   table(Tables, L, table(words(_, None, _, _), _, _))
    ->  true
    ;   None = 0
    ),
    (   arg(LT, Withouts, Positions),
        Positions \== none
    ->  J1 is J + 1,
        arg(J1, Positions, Without)
    ;   Without = []
    ),
    alphabet_size(Alphabet, Size),
    Base is X * Size,
    join_pairs(There, Here, None, Without, Alphabet-Base, Joined),
    by_code(Joined, ByCode).

%   alphabet(+Tables, +Lengths, -Alphabet): the letters of the words of
%   the sites' lengths, as an assoc from code to its number (from 1), so
%   that a crossing X and a letter of number A have the flag X * Size + A
%   of Dead (see the net at the top), Size the number of letters.
alphabet(Tables, Lengths, Alphabet) :-
    sort(Lengths, Used),
    foldl(length_codes(Tables), Used, [], Codes0),
    sort(Codes0, Codes),
    length(Codes, Size),
    numlist(1, Size, Numbers),
    pairs_keys_values(Pairs, Codes, Numbers),
    list_to_assoc(Pairs, Assoc),
    Alphabet = alphabet(Size, Assoc).

alphabet_size(alphabet(Size, _), Size).

length_codes(Tables, L, Codes0, Codes) :-
    (   table(Tables, L, table(_, _, Masks))
    ->  Masks =.. [_|Positions],
        foldl(position_codes, Positions, Codes0, Codes)
    ;   Codes = Codes0
    ).

position_codes(Pairs, Codes0, Codes) :-
    pairs_keys(Pairs, Keys),
    append(Keys, Codes0, Codes).

%   by_code(+Joined, -ByCode): ByCode is codes(Low, Args), Args with an
%   argument per code from Low (the least code of Joined) up to the
%   greatest: the entry of Joined for that code, or 0.  Far apart codes
%   (over max_code_span/1 of them) would make it large: then ByCode is
%   listed(Joined).
by_code([], listed([])).
by_code(Joined, ByCode) :-
    Joined = [j(Low, _, _, _, _, _)|_],
    last(Joined, j(High, _, _, _, _, _)),
    Span is High - Low + 1,
    max_code_span(Most),
    (   Span =< Most
    ->  functor(Args, codes, Span),
        maplist(code_arg(Low, Args), Joined),
        Args =.. [_|Slots],
        maplist(empty_slot, Slots),
        ByCode = codes(Low, Args)
    ;   ByCode = listed(Joined)
    ).

code_arg(Low, Args, Entry) :-
    arg(1, Entry, Code),
    A is Code - Low + 1,
    arg(A, Args, Entry).

empty_slot(Slot) :-
    (   var(Slot)
    ->  Slot = 0
    ;   true
    ).

position_pairs(Tables, L, P, Pairs) :-
    (   table(Tables, L, table(_, _, Masks))
    ->  P1 is P + 1,
        arg(P1, Masks, Pairs)
    ;   Pairs = []
    ).

%   join_pairs(+There, +Here, +None, +Without, +Flags, -Joined): both
%   sorted by code, so a merge.
join_pairs([], _, _, _, _, []).
join_pairs([C-M|There], Here0, None, [C-W|Without], Flags,
           [j(C, H, M, Residue, W, Flag)|Joined]) :-
    drop_below(Here0, C, Here),
    (   Here = [C-H|_]
    ->  Residue is lsb(H)
    ;   H = 0,
        Residue = None
    ),
    Flags = alphabet(_, Assoc)-Base,
    get_assoc(C, Assoc, A),
    Flag is Base + A,
    join_pairs(There, Here, None, Without, Flags, Joined).

drop_below([], _, []).
drop_below([C0-H|Here0], C, Here) :-
    (   C0 < C
    ->  drop_below(Here0, C, Here)
    ;   Here = [C0-H|Here0]
    ).

                 /*******************************
                 *            CHOICES           *
                 *******************************/

%!  choose(+Region:list(integer), +Net, -Site:integer) is det.
%
%   The site of Region of smallest |D| / wdeg, wdeg the weights of its
%   crossings with open sites; ties to the first in Region.

choose([S|Ss], Net, Best) :-
    site_measure(Net, S, Size, Weight),
    choose(Ss, Net, S, Size, Weight, Best).

choose([], _, Best, _, _, Best).
choose([S|Ss], Net, Best0, Size0, Weight0, Best) :-
    site_measure(Net, S, Size, Weight),
    (   Size * Weight0 < Size0 * Weight
    ->  choose(Ss, Net, S, Size, Weight, Best)
    ;   choose(Ss, Net, Best0, Size0, Weight0, Best)
    ).

site_measure(net(Dom, Open, _, Weights, Links, _, _, _, _, _, _), S, Size, Weight) :-
    S1 is S + 1,
    arg(S1, Dom, D),
    Size is popcount(D),
    arg(S1, Links, SiteLinks),
    open_weight(SiteLinks, Open, Weights, 0, Weight).

open_weight([], _, _, W, W).
open_weight([l(_, T, _, X, _, _)|Links], Open, Weights, W0, W) :-
    T1 is T + 1,
    (   arg(T1, Open, true)
    ->  X1 is X + 1,
        arg(X1, Weights, Wx),
        W1 is W0 + Wx
    ;   W1 = W0
    ),
    open_weight(Links, Open, Weights, W1, W).

                 /*******************************
                 *    PLACING AND PROPAGATING   *
                 *******************************/

%!  place(+Site:integer, +K:integer, +Net) is semidet.
%
%   Put word K in Site and propagate; fails on a wipe-out.  When its last
%   copy is placed the word leaves the other open sites of its length.

place(S, K, Net) :-
    Net = net(Dom, Open, Left, _, _, Lengths, ByLength, _, _, _, _),
    S1 is S + 1,
    arg(S1, Lengths, L),
    setarg(S1, Open, false),
    arg(L, Left, Counts),
    K1 is K + 1,
    arg(K1, Counts, C0),
    C is C0 - 1,
    setarg(K1, Counts, C),
    Bit is 1 << K,
    setarg(S1, Dom, Bit),
    (   C > 0
    ->  propagate([S], Net)
    ;   arg(L, ByLength, Same),
        arg(11, Net, Kernel),
        (   Kernel == none
        ->  used_up(Same, K, Bit, Dom, Open, Changed),
            propagate([S|Changed], Net)
        ;   kernel_place(Kernel, S, K, Same, Net)   % used_up/6 and propagate/2 in one
        )
    ).

used_up([], _, _, _, _, []).
used_up([T|Ts], K, Bit, Dom, Open, Changed) :-
    T1 is T + 1,
    arg(T1, Dom, D),
    (   arg(T1, Open, true),
        getbit(D, K) =:= 1
    ->  D1 is D xor Bit,
        (   D1 =:= 0
        ->  count_backtrack,
            fail
        ;   setarg(T1, Dom, D1),
            Changed = [T|Changed1]
        )
    ;   Changed = Changed1
    ),
    used_up(Ts, K, Bit, Dom, Open, Changed1).

%!  propagate(+Changed:list(integer), +Net) is semidet.
%
%   Letter-level arc consistency from the Changed sites, a FIFO queue
%   (Front, then Back reversed) of sites each queued once at a time;
%   fails on a wipe-out, which is a dead end and adds 1 to the weight of
%   the crossing that emptied the domain.  Sup holds per site
%   sup(Last, Live) from its last revision (none before the first): Last
%   the domain it was revised from (the open neighbours agree with the
%   letters of its words, and backtracking restores domains and supports
%   together, so a revision needs to look only at the words gone since:
%   source/8) and Live, per link, the entries of its Joined (see links/5)
%   whose letters the neighbour may still have and Last had.  A letter
%   out of Live stays out until backtracking (the site lost it, or the
%   neighbour did: domains only shrink), so a revision looks at the
%   entries of Live only.

propagate(Changed, Net) :-
    arg(11, Net, Kernel),
    (   Kernel == none
    ->  arg(1, Net, Dom),
        functor(Dom, _, N),
        functor(Queued, queued, N),     % argument S + 1 true: S is in the queue
        queue(Changed, Queued),
        propagate(Changed, [], Queued, Net)
    ;   kernel_propagate(Kernel, Changed, Net)
    ).

%   (This loop and every_letter/2's are written out: they run at every
%   node, and maplist/2,3 would make each step a call/N.)
queue([], _).
queue([S|Changed], Queued) :-
    S1 is S + 1,
    arg(S1, Queued, true),
    queue(Changed, Queued).

propagate([], [], _, _) :-
    !.
propagate([], Back, Queued, Net) :-
    !,
    reverse(Back, Front),
    propagate(Front, [], Queued, Net).
propagate([S|Front], Back0, Queued, Net) :-
    S1 is S + 1,
    setarg(S1, Queued, false),
    revise_site(S1, Queued, Back0, Back, Net),
    propagate(Front, Back, Queued, Net).

%   revise_site(+S1, +Queued, +Back0, -Back, +Net): the revision from site
%   S1 - 1 in Prolog; Back0-Back the sites it queues.
revise_site(S1, Queued, Back0, Back, Net) :-
    Net = net(Dom, Open, _, Weights, Links, Lengths, _, Tables, Sup, Dead, _),
    arg(S1, Links, SiteLinks),
    arg(S1, Dom, DS),
    arg(S1, Sup, Last),
    source(Last, DS, S1, SiteLinks, Lengths, Tables, Source, Live0),
    (   Source == unchanged
    ->  Back = Back0
    ;   Source = lost(Word, _),
        still_held(SiteLinks, Word, DS, Open)
    ->  Back = Back0,
        setarg(S1, Sup, sup(DS, Live0))
    ;   revise_links(SiteLinks, Live0, Live, Source, Queued, Back0, Back, Dom, Open,
                     Weights, Dead),
        setarg(S1, Sup, sup(DS, Live))
    ).

%   kernel_propagate(+Kernel, +Changed, +Net): propagate/2 by the C kernel:
%   one call (arcs_kernel.c's propagate/7) runs the whole queue, each
%   revision as revise_site/5 does (the source worked out as source/8
%   does); here each domain that changed is set once and each support
%   kept, or the crossing that wiped a domain out weighed.  Live is per
%   link a set of letter numbers (an integer) rather than a list of
%   entries, and no letter is marked in Dead: both only spare the Prolog
%   revision work, never change its result.
kernel_propagate(kernel(Handle), Changed, Net) :-
    Net = net(Dom, Open, _, _, _, _, _, _, Sup, _, _),
    arcs_kernel:propagate(Handle, Changed, Dom, Open, Sup, Updates, Wipe),
    kernel_outcome(Wipe, Updates, Net).

%   kernel_place(+Kernel, +S, +K, +Same, +Net): place/3's last steps when
%   the last copy of word K went to site S: used_up/6 (a site emptied so
%   is a dead end, no crossing weighed) and propagate/2, by one call.
kernel_place(kernel(Handle), S, K, Same, Net) :-
    Net = net(Dom, Open, _, _, _, _, _, _, Sup, _, _),
    arcs_kernel:place(Handle, S, K, Same, Dom, Open, Sup, Updates, Wipe),
    kernel_outcome(Wipe, Updates, Net).

kernel_outcome(none, Updates, Net) :-
    !,
    Net = net(Dom, _, _, _, _, _, _, _, Sup, _, _),
    set_updates(Updates, Dom, Sup).
kernel_outcome(used_up, _, _) :-
    !,
    count_backtrack,
    fail.
kernel_outcome(X, _, Net) :-
    arg(4, Net, Weights),
    X1 is X + 1,
    arg(X1, Weights, W0),
    W is W0 + 1,
    nb_setarg(X1, Weights, W),
    count_backtrack,
    fail.

%   set_updates(+Updates, +Dom, +Sup): each u(S1, D, U): site S1 - 1's
%   domain is D (same: unchanged) and its support U (keep: unchanged).
set_updates([], _, _).
set_updates([u(S1, D, U)|Updates], Dom, Sup) :-
    (   D == same
    ->  true
    ;   setarg(S1, Dom, D)
    ),
    (   U == keep
    ->  true
    ;   setarg(S1, Sup, U)
    ),
    set_updates(Updates, Dom, Sup).

%   still_held(+Links, +Word, +DS, +Open): the one word lost leaves every
%   letter it has at an open link with its residue in DS, so the revision
%   changes nothing (most often it is so; a quick pass first, as a full
%   one builds every link's result).
still_held([], _, _, _).
still_held([l(I, T, _, _, _, ByCode)|Links], Word, DS, Open) :-
    T1 is T + 1,
    (   arg(T1, Open, true)
    ->  I1 is I + 1,
        string_code(I1, Word, Code),
        (   code_entry(ByCode, Code, j(_, _, _, Residue, _, _))
        ->  getbit(DS, Residue) =:= 1
        ;   true
        )
    ;   true
    ),
    still_held(Links, Word, DS, Open).

%   source(+Last, +DS, +S1, +Links, +Lengths, +Tables, -Source, -Live): what
%   a revision from the site reads, and the Live letters of its links
%   before it.  unchanged when no word went since Last: nothing to revise.
%   When one word went, only its letters can have lost their last word
%   (the neighbours agree with Last), so lost(Word, DS); else word(Word)
%   for a domain of one word, few(Ks, Letters) for up to few_words/1 words
%   Ks (their letters are read from Letters, see letters/2, rather than
%   each letter of Live tested against the domain, as
%   pybridge.search.arcs does), or domain(DS).
source(none, DS, S1, Links, Lengths, Tables, Source, Live) :-
    !,
    every_letter(Links, Live),
    whole_source(DS, S1, Lengths, Tables, Source).
source(sup(Last, Live), DS, S1, _, Lengths, Tables, Source, Live) :-
    (   Last == DS                      % the very term, as a revision leaves it
    ->  Source = unchanged
    ;   Count is popcount(DS),          % DS is within Last: no XOR to count
        (   popcount(Last) - Count =:= 1
        ->  K is msb(Last xor DS),
            word_of(S1, K, Lengths, Tables, Word),
            Source = lost(Word, DS)
        ;   count_source(Count, DS, S1, Lengths, Tables, Source)
        )
    ).

every_letter([], []).
every_letter([l(_, _, _, _, Joined, _)|Links], [Joined|Live]) :-
    every_letter(Links, Live).

whole_source(DS, S1, Lengths, Tables, Source) :-
    Count is popcount(DS),
    count_source(Count, DS, S1, Lengths, Tables, Source).

count_source(Count, DS, S1, Lengths, Tables, Source) :-
    (   Count =:= 1
    ->  K is msb(DS),
        word_of(S1, K, Lengths, Tables, Word),
        Source = word(Word)
    ;   Count > 1,
        few_words(Few),
        Count =< Few
    ->  members(DS, Ks, []),
        arg(S1, Lengths, L),
        arg(L, Tables, table(Words, _, _)),
        letters(Words, Letters),
        Source = few(Ks, Letters)
    ;   Source = domain(DS)
    ).

word_of(S1, K, Lengths, Tables, Word) :-
    arg(S1, Lengths, L),
    arg(L, Tables, table(Words, _, _)),
    word(Words, K, Word).

revise_links([], [], [], _, _, Back, Back, _, _, _, _).
revise_links([l(I, T, _, X, _, ByCode)|Links], [Live0|Lives0], [Live|Lives], Source,
             Queued, Back0, Back, Dom, Open, Weights, Dead) :-
    T1 is T + 1,
    (   arg(T1, Open, true)
    ->  arg(T1, Dom, DT),
        kept(Source, I, ByCode, DT, Kept, Live0, Live, Dead),
        (   ( Kept == DT ; Kept =:= DT )  % == first: a revision that keeps all passes DT on
        ->  Back1 = Back0
        ;   Kept =:= 0
        ->  X1 is X + 1,
            arg(X1, Weights, W0),
            W is W0 + 1,
            nb_setarg(X1, Weights, W),
            count_backtrack,
            fail
        ;   setarg(T1, Dom, Kept),
            (   arg(T1, Queued, Q),
                Q == true
            ->  Back1 = Back0
            ;   setarg(T1, Queued, true),
                Back1 = [T|Back0]
            )
        )
    ;   Back1 = Back0,
        Live = Live0
    ),
    revise_links(Links, Lives0, Lives, Source, Queued, Back1, Back, Dom, Open, Weights,
                 Dead).

%   kept(+Source, +I, +ByCode, +DT, -Kept, +Live0, -Live): the
%   words of DT whose letter over there is one that a word of the source
%   has at position I here, and the Live letters left (see propagate/2).
%   A source of one word has one letter there (and the site's next
%   revision finds it unchanged: its Live no longer matters); else each
%   live letter that no source word has takes its words out of DT (fewer
%   and smaller operations than the union of the allowed words), but a
%   source of few words keeps the union of its letters' words (few ORs)
%   and, as Live, the entries of those letters.  The
%   tests compare expressions rather than bind them: a big integer bound
%   with is/2 goes onto the global stack, one compared stays in C.
kept(word(Word), I, ByCode, DT, Kept, Live, Live, _) :-
    I1 is I + 1,
    string_code(I1, Word, Code),
    (   code_entry(ByCode, Code, j(_, _, Mask, _, _, _))
    ->  Kept is DT /\ Mask
    ;   Kept = 0
    ).
kept(lost(Word, DS), I, ByCode, DT, Kept, Live0, Live, Dead) :-
    I1 is I + 1,
    string_code(I1, Word, Code),
    (   code_entry(ByCode, Code, Entry)
    ->  kept_live([Entry], DS, Dead, DT, DT, Expr, Left),
        evaluated(Expr, DT, Kept),
        (   Left == []
        ->  drop_entry(Live0, Code, Live)
        ;   Live = Live0
        )
    ;   Kept = DT,
        Live = Live0
    ).
kept(domain(DS), _, _, DT, Kept, Live0, Live, Dead) :-
    kept_live(Live0, DS, Dead, DT, DT, Expr, Live),
    evaluated(Expr, DT, Kept).
kept(few(Ks, Letters), I, ByCode, DT, Kept, _, Live, _) :-
    I1 is I + 1,
    arg(I1, Letters, At),
    codes_at(Ks, At, Codes0),
    sort(Codes0, Codes),
    few_entries(Codes, ByCode, 0, Allowed, Live),
    Kept is DT /\ Allowed.

%   evaluated(+Expr, +DT, -Kept): Kept is Expr, DT itself when nothing was
%   taken away (see kept_live/7).
evaluated(Expr, DT, Kept) :-
    (   Expr == DT
    ->  Kept = DT
    ;   Kept is Expr
    ).

%   codes_at(+Ks, +At, -Codes): the letter of each word K of Ks at a
%   position, At its letters there (see letters/2).
codes_at([], _, []).
codes_at([K|Ks], At, [Code|Codes]) :-
    K1 is K + 1,
    arg(K1, At, Code),
    codes_at(Ks, At, Codes).

%   few_entries(+Codes, +ByCode, +Allowed0, -Allowed, -Live): the words
%   over there with one of the letters Codes (ascending), as an expression
%   (evaluated once, by kept/8: the unions in between stay in C rather than
%   go onto the global stack), and their entries (each a letter that the
%   source has, so Live stays within what Last had).
few_entries([], _, Allowed, Allowed, []).
few_entries([Code|Codes], ByCode, Allowed0, Allowed, Live) :-
    (   code_entry(ByCode, Code, Entry)
    ->  arg(3, Entry, There),
        Allowed1 = Allowed0 \/ There,
        Live = [Entry|Live1]
    ;   Allowed1 = Allowed0,
        Live = Live1
    ),
    few_entries(Codes, ByCode, Allowed1, Allowed, Live1).

%   code_entry(+ByCode, +Code, -Entry): the entry for letter Code (the
%   term itself, as kept_live/7 updates its residue in place); it need
%   not be live (see propagate/2): its words over there are then gone, so
%   looking at it changes nothing.
code_entry(codes(Low, Args), Code, Entry) :-
    A is Code - Low + 1,
    A >= 1,
    arg(A, Args, Entry),
    Entry \== 0.
code_entry(listed(Entries), Code, Entry) :-   % far apart codes
    entry(Entries, Code, Entry).

%   entry(+Entries, +Code, -Entry): the entry of Entries (sorted by code)
%   for letter Code.
entry([Entry0|Entries], Code, Entry) :-
    arg(1, Entry0, C),
    (   C =:= Code
    ->  Entry = Entry0
    ;   C < Code
    ->  entry(Entries, Code, Entry)
    ).

%   drop_entry(+Live0, +Code, -Live): Live0 without the entry for Code,
%   if it has one.
drop_entry([], _, []).
drop_entry([Entry|Entries], Code, Live) :-
    (   arg(1, Entry, Code)
    ->  Live = Entries
    ;   Live = [Entry|Live1],
        drop_entry(Entries, Code, Live1)
    ).

%   kept_live(+Entries, +DS, +Dead, +DT, +Kept0, -Kept, -Live): each of
%   Entries in turn: its letter keeps its words over there while its
%   residue is in DS, or another word of DS has it (the new residue); else
%   they go: Kept is DT /\ Without for each letter that goes and DT has,
%   as an expression evaluated once by the caller (one big integer onto
%   the global stack per link, not one per letter; whether DT has the
%   letter does not depend on the others taken away, as each is at the
%   same position).  A letter gone from both sides leaves Live and is marked in
%   Dead (with setarg/3: domains only shrink until backtracking undoes
%   the mark), so that the revision the other way round drops it without
%   testing it (its residue there was one of the words just taken away).
%   A letter kept here but gone over there may stay in Live: it changes
%   nothing.  The tests go from the cheapest: a bit, a mark, then ANDs
%   compared (not bound: see kept/8).
kept_live([], _, _, _, Kept, Kept, []).
kept_live([Entry|Entries], DS, Dead, DT, Kept0, Kept, Live) :-
    Entry = j(_, Here, There, Residue, Without, Flag),
    (   getbit(DS, Residue) =:= 1
    ->  Kept1 = Kept0,
        Live = [Entry|Live1]
    ;   arg(Flag, Dead, true)
    ->  Kept1 = Kept0,
        Live = Live1
    ;   DS /\ Here =\= 0
    ->  Residue1 is lsb(DS /\ Here),
        nb_setarg(4, Entry, Residue1),
        Kept1 = Kept0,
        Live = [Entry|Live1]
    ;   setarg(Flag, Dead, true),
        Live = Live1,
        (   DT /\ There =:= 0          % D(T) lacks the letter too
        ->  Kept1 = Kept0
        ;   Kept1 = Kept0 /\ Without
        )
    ),
    kept_live(Entries, DS, Dead, DT, Kept1, Kept, Live1).
