/*  crossword: the entry point of the Prolog engine.

    A puzzle arrives as facts (load_puzzle/3, then run/4 or run/5) or as
    three strings (solve/8, the one call the Python bridge makes); either
    way this module checks the request against the strategy table
    (strategy/3), builds the layout once (layout.pl: the board, one
    variable per open cell, and the crossings), runs the strategy's family
    under the time limit (watched, when kernel:watch/2 asked for it),
    collects the solutions and reads the counters (kernel.pl).

    The strategies are specified in docs/search.md (a section each, from
    docs/search.md#given on; the counters in docs/search.md#counters, the
    seeds in docs/search.md#seeds); each family is a module of its own that
    mirrors its Python twin step for step (prolog/order.pl and
    pybridge/search/order.py, ...), and declares itself to this module: its
    strategies (family_strategy/3, in the order of its Python twin's
    STRATEGIES, the family's place among the others by family/2), its search (family_search/7), and
    whether it reads a dictionary (reads_dictionary/1) or finds the best
    fill (family_improve/9).  This module loads the modules beside it when
    first needed (engine_module/1: a search's family before it starts), so
    a new family needs no line here (docs/search.md#adding-a-strategy).

    A family that reads a dictionary (wdeg, valued) does not read the
    listed words: its strategy runs as Name(Key), Key the dictionary's as
    arcs:load_dictionary_text/2,3 keeps it, or Name(Key, ScoreKey) with the
    words' scores (kernel:load_scores_text/2).  improve/8 runs a family
    that optimises (valued) for the best fill, giving each better fill as
    a solution (docs/search.md#valued).

    No I/O here: the caller reads the result of run/5 or solve/8.
*/

:- module(crossword,
          [ load_puzzle/3,              % +Words, +Sites, +Givens
            run/4,                      % +Strategy, +Mode, +TimeLimit, -Result
            run/5,                      % +Strategy, +Seed, +Mode, +TimeLimit, -Result
            solve/8,                    % +Strategy, +Seed, +Mode, +TimeLimit,
                                        % +WordsText, +SitesText, +GivensText, -Answer
            improve/8,                  % +Strategy, +Objective, +Cap, +Beat,
                                        % +TimeLimit, +SitesText, +GivensText, -Line
            reset/0,
            strategies/1,               % -Names
            strategy/3,                 % ?Name, ?Family, ?Seeded
            engine_module/1,            % +Name
            interrupt_search/1          % +Signal
          ]).

%   Arithmetic compiled inline.  The flag reverts when this file is loaded.
:- set_prolog_flag(optimise, true).

%   A search of a small puzzle builds a few hundred kilobytes that are all
%   freed when it returns; with the default free space (256 cells) nearly
%   every search of a P-99 puzzle ran the garbage collector, a tenth of its
%   time.  A megabyte of room (in the loading thread) spares that; set
%   again when the engine starts from a saved state (setup.sh makes one),
%   which keeps the program but not the stacks' settings.
:- set_prolog_stack(global, min_free(131072)).
:- initialization(set_prolog_stack(global, min_free(131072)), restore).

:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(library(error)).

%   library(time) (the alarms of kernel.pl's time limits) declares the
%   options of alarm/4, and the declaration makes SWI-Prolog autoload
%   library(predicate_options), a checker of options at development time
%   that no search runs: 17 ms of the 25 ms the library took to load, at
%   every start of the engine.  With autoloading kept to the predicates
%   declared with autoload/2 while it loads, SWI-Prolog's boot files keep
%   the declaration (as facts) and nothing more is loaded.
:- current_prolog_flag(autoload, Autoload),
   setup_call_cleanup(set_prolog_flag(autoload, explicit),
                      use_module(library(time)),
                      set_prolog_flag(autoload, Autoload)).
:- use_module(kernel, [reset_counters/0, reset_counters/1, count_solution/0, counter/2, limited/2]).
:- use_module(layout, [layout/5]).

%   What the families declare (see STRATEGIES below).
:- multifile
    family/2,                           % family(?Family, ?Place)
    family_strategy/3,                  % family_strategy(?Name, ?Family, ?Seeded)
    reads_dictionary/1,                 % reads_dictionary(?Family)
    family_search/7,                    % see search/7
    optimises/1,                        % optimises(?Family): see improve/8
    family_improve/9,                   % see improve/8
    search_global/1.                    % see forget_search/0

%!  engine_module(+Name:atom) is det.
%
%   The module Name, one of the files beside this one (a family, what the
%   families share (arcs.pl), the cube split (cubes.pl) or the word search
%   (wordsearch.pl)), is loaded and what it calls linked (link_libraries/0),
%   if it was not yet.  The modules load when first needed, so that a
%   search pays only for its own family: the Python bridge loads a
%   strategy's family (its twin's name) before the search and its clock,
%   and strategies/1, or a strategy that no loaded family declares, loads
%   them all (load_engine/0).  A new family needs no line here either
%   (docs/search.md#adding-a-strategy).
%
%   ?- engine_module(domains), strategy(mrv, Family, Seeded).
%   Family = domains,
%   Seeded = true.

engine_module(Name) :-
    engine_modules(Names),
    must_be(oneof(Names), Name),
    (   module_property(Name, file(_))
    ->  true
    ;   engine_directory(Dir),
        atomic_list_concat([Dir, Name], /, Path),
        use_module(Path, []),
        link_libraries
    ).

%   load_engine: every module beside this file, in name order.
load_engine :-
    engine_modules(Names),
    forall(member(Name, Names), engine_module(Name)).

%   engine_modules(-Names): the modules beside this file, in name order.
engine_modules(Names) :-
    engine_directory(Dir),
    directory_files(Dir, Entries),
    findall(Base, ( member(Entry, Entries),
                    file_name_extension(Base, pl, Entry),
                    Base \== crossword
                  ), Bases),
    msort(Bases, Names).

engine_directory(Dir) :-
    module_property(crossword, file(File)),
    file_directory_name(File, Dir).

:- dynamic
    word/2,                             % word(Index, Chars)
    site/2,                             % site(Index, Cells)
    given/3,                            % given(Row, Col, Char)
    found/1.                            % found(String): a stored solution

                 /*******************************
                 *          STRATEGIES          *
                 *******************************/

%!  strategy(?Name:atom, ?Family:atom, ?Seeded:boolean) is nondet.
%
%   The strategy table: each strategy with its family (the module that
%   searches it) and whether it takes a seed, as the families declare
%   them (family_strategy/3, multifile), in the order of strategies/1.
%   A strategy of a family that reads a dictionary (reads_dictionary/1)
%   runs as Name(Key).  known_strategy/3 and seed_applies/3 read this
%   table only.
%
%   ?- strategy(cbj, Family, Seeded).
%   Family = domains,
%   Seeded = true.

strategy(Name, Family, Seeded) :-
    atom(Name),
    !,
    (   family_strategy(Name, _, _)
    ->  true
    ;   load_engine                             % a family not loaded yet?
    ),
    family_strategy(Name, Family, Seeded).     % indexed: no choice point left
strategy(Name, Family, Seeded) :-
    load_engine,
    findall(Place-s(N, F, S), ( family(F, Place), family_strategy(N, F, S) ), Pairs),
    keysort(Pairs, Sorted),
    member(_-s(Name, Family, Seeded), Sorted).

%!  strategies(-Names:list(atom)) is det.
%
%   The names of the strategies, in order: by their family's place
%   (family/2), then in the order the family declares them
%   (pybridge.search.registry has the same).
%
%   ?- strategies(Names).
%   Names = [given, sorted, mrv, ac3, lcv, cs50, cbj, wdeg, valued].

strategies(Names) :-
    findall(Name, strategy(Name, _, _), Names).

%   known_strategy(+Strategy, -Name, -Family): Strategy is a strategy's
%   name, or Name(Key...) with integer keys for a family that reads a
%   dictionary; an error otherwise.
known_strategy(Strategy, Name, Family) :-
    compound(Strategy),
    compound_name_arguments(Strategy, Name, Keys),
    strategy(Name, Family, _),
    reads_dictionary(Family),
    !,
    must_be(list(integer), Keys).
known_strategy(Strategy, Strategy, Family) :-
    atom(Strategy),
    strategy(Strategy, Family, _),
    \+ reads_dictionary(Family),
    !.
known_strategy(Strategy, _, _) :-       % no strategy: the error says which are
    findall(Name, ( strategy(Name, F, _), \+ reads_dictionary(F) ), Names),
    must_be(oneof(Names), Strategy),
    domain_error(oneof(Names), Strategy).

%   seed_applies(+Seed, +Strategy, +Name): Seed is none, or an integer
%   >= 0 and the strategy takes one.
seed_applies(none, _, _) :- !.
seed_applies(Seed, Strategy, Name) :-
    must_be(nonneg, Seed),
    (   strategy(Name, _, true)
    ->  true
    ;   domain_error(seeded_strategy, Strategy)
    ).

%   search(+Family, +Strategy, +Seed, +Words, +Board, +Arcs, +Crossings):
%   the family's search (its family_search/7), which binds Board once per
%   fill.
search(Family, Strategy, Seed, Words, Board, Arcs, Crossings) :-
    family_search(Family, Strategy, Seed, Words, Board, Arcs, Crossings).

                 /*******************************
                 *        PUZZLE AND RUN        *
                 *******************************/

%!  reset is det.
%
%   Forget the puzzle, the stored solutions and the counters.

reset :-
    retractall(word(_, _)),
    retractall(site(_, _)),
    retractall(given(_, _, _)),
    retractall(found(_)),
    reset_counters.

%!  load_puzzle(+Words:list(list(code)), +Sites:list(list(pair)),
%!              +Givens:list(compound)) is det.
%
%   Replace the puzzle by a new one.  Words are code lists (the caller never
%   writes text into Prolog source), Sites are lists of Row-Col cells in
%   site order, Givens are g(Row, Col, Code) terms.
%
%   ?- load_puzzle([`ab`, `ac`], [[0-0, 0-1], [0-0, 1-0]], []).

load_puzzle(Words, Sites, Givens) :-
    reset,
    forall(nth0(I, Words, Codes),
           ( codes_chars(Codes, Chars), assertz(word(I, Chars)) )),
    forall(nth0(I, Sites, Cells), assertz(site(I, Cells))),
    forall(member(g(R, C, Code), Givens),
           ( char_code(Char, Code), assertz(given(R, C, Char)) )).

codes_chars(Codes, Chars) :-
    maplist(code_char, Codes, Chars).

code_char(Code, Char) :-
    char_code(Char, Code).

%!  run(+Strategy, +Mode, +TimeLimit, -Result) is det.
%!  run(+Strategy, +Seed, +Mode, +TimeLimit, -Result) is det.
%
%   Search the loaded puzzle.  Strategy is given, sorted, mrv, ac3, lcv,
%   cs50, cbj or wdeg(Key), Key an integer under which arcs.pl keeps a
%   dictionary (the puzzle's words are then not read: load_puzzle([], ...)
%   will do).  Seed is none (run/4) or an integer >= 0 for the strategies
%   that take one (strategy/3; docs/search.md#seeds).  Mode is first(N)
%   (stop after N solutions), all, or count (count every solution without
%   keeping them).  TimeLimit
%   is a positive number of seconds or none, or limits(Seconds, Nodes)
%   with Nodes none or the most nodes the search may count (reached, the
%   search ends as at the time limit; docs/search.md#counters).  Result is
%   result(Status, Solutions, Count, Nodes, Backtracks) where Status is
%   solved, unsolvable or timeout and each solution is one string: the
%   words of all sites in site order, run together (a string crosses to
%   Python far faster than a list of code lists).
%
%   ?- load_puzzle([`ab`, `ac`], [[0-0, 0-1], [0-0, 1-0]], []),
%      run(mrv, all, none, R).
%   R = result(solved, ["abac", "acab"], 2, 4, 0).

run(Strategy, Mode, TimeLimit, Result) :-
    run(Strategy, none, Mode, TimeLimit, Result).

run(Strategy, Seed, Mode, TimeLimit, Result) :-
    findall(W, word(_, W), Words),
    findall(Cells, site(_, Cells), Sites),
    findall(g(R-C, Char), given(R, C, Char), Givens),
    run_puzzle(p(Words, Sites, Givens), Strategy, Seed, Mode, TimeLimit, Result).

%!  solve(+Strategy, +Seed, +Mode, +TimeLimit, +WordsText, +SitesText,
%!        +GivensText, -Answer) is det.
%
%   run/5 in one call, for the Python bridge: the puzzle arrives as three
%   strings, which are data and never read as terms, and nothing is
%   asserted.  WordsText holds each word followed by a newline.  SitesText
%   holds each site as one line of characters, two per cell, whose codes
%   are 256 + Row and 256 + Col (below 65536); GivensText three characters
%   per predefined letter: 256 + Row, 256 + Col and the letter.  Answer is the
%   string "Status Count Nodes Backtracks\n" followed by each solution
%   and a newline.

solve(Strategy, Seed, Mode, TimeLimit, WordsText, SitesText, GivensText, Answer) :-
    Puzzle = text(WordsText, SitesText, GivensText),  % read under the time limit
    run_puzzle(Puzzle, Strategy, Seed, Mode, TimeLimit, Result),
    Result = result(Status, Solutions, Count, Nodes, Backtracks),
    format(string(Head), "~w ~d ~d ~d~n", [Status, Count, Nodes, Backtracks]),
    foldl(solution_line, Solutions, Lines, []),
    atomics_to_string([Head|Lines], Answer).

text_sites(SitesText, GivensText, Sites, Givens) :-
    text_lines(SitesText, SiteLines),
    maplist(site_line, SiteLines, Sites),
    string_codes(GivensText, GivenCodes),
    given_codes(GivenCodes, Givens).

%!  improve(+Strategy, +Objective, +Cap, +Beat, +TimeLimit, +SitesText,
%!          +GivensText, -Line) is nondet.
%
%   The best fill by a strategy of a family that optimises (optimises/1:
%   valued, Strategy valued(Key, ScoreKey), by its family_improve/9) for
%   Objective, min or sum: each better fill is a solution,
%   Line the string "better Value Nodes Backtracks Fill" (Fill the words
%   of all sites in site order, run together), and the last solution is
%   "end Status Nodes Backtracks Bound": Status solved (the last fill is
%   optimal), unsolvable (no fill) or timeout, Bound the greatest value a
%   fill can have (none when unknown).  Cap is none or a value no fill
%   can beat; TimeLimit none or seconds, read by the search at every node,
%   or limits(Seconds, Nodes) as for run/5.
%   SitesText and GivensText as for solve/8.  The caller reads the
%   solutions one by one as they come, and cuts the query after the last.

improve(Strategy, Objective, Cap, Beat, Limits, SitesText, GivensText, Line) :-
    known_strategy(Strategy, _, Family),
    findall(F, optimises(F), Optimising),
    must_be(oneof(Optimising), Family),
    must_be(oneof([min, sum]), Objective),
    text_sites(SitesText, GivensText, Sites, Givens),
    limits(Limits, TimeLimit, NodeLimit),
    reset_counters(NodeLimit),
    deadline(TimeLimit, Deadline),
    (   Beat == none
    ->  true
    ;   must_be(integer, Beat)
    ),
    (   catch(limited(TimeLimit, layout(Sites, Givens, Board, Arcs, Crossings)),
              time_limit_exceeded, fail)
    ->  Control = control(Beat, none, false)
    ;   Control = control(Beat, none, true)  % the time ran out building the layout
    ),
    (   arg(3, Control, false),
        family_improve(Family, Strategy, Objective, Cap, Deadline, Control,
                       Board, Arcs, Crossings),
        arg(1, Control, Value),
        counter(nodes, Nodes),
        counter(backtracks, Backtracks),
        site_chars(Board, Chars),
        string_chars(Fill, Chars),
        format(string(Line), "better ~d ~d ~d ~w", [Value, Nodes, Backtracks, Fill])
    ;   Control = control(Best, Open, TimedOut),
        counter(nodes, Nodes),
        counter(backtracks, Backtracks),
        end_status(TimedOut, Best, Beat, Status),
        end_bound(TimedOut, Best, Open, Bound),
        format(string(Line), "end ~w ~d ~d ~w", [Status, Nodes, Backtracks, Bound])
    ).

deadline(none, none) :-
    !.
deadline(Seconds, Deadline) :-
    must_be(number, Seconds),
    get_time(Now),
    Deadline is Now + Seconds.

%   end_status(+TimedOut, +Best, +Beat, -Status): unsolvable when no fill
%   beat Beat (none: no fill at all).
end_status(true, _, _, timeout) :- !.
end_status(false, Best, Best, unsolvable) :- !.
end_status(false, _, _, solved).

%   end_bound(+TimedOut, +Best, +Open, -Bound): the best value once the
%   search has ended; after a timeout the greater of it and the bound of
%   what was left (either may be none).
end_bound(false, Best, _, Best).
end_bound(true, Best, Open, Bound) :-
    (   Best == none
    ->  Bound = Open
    ;   Open == none
    ->  Bound = Best
    ;   Bound is max(Best, Open)
    ).

%   text_lines(+Text, -Lines): the lines of Text, each ended by a newline.
text_lines(Text, Lines) :-
    split_string(Text, "\n", "", Parts),
    once(append(Lines, [_], Parts)).

%   A cell is only compared with other cells here, so it becomes one
%   integer (a key keysort/2 orders faster than Row-Col): R0 * 65536 + C0
%   from its two codes (each below 65536).
site_line(Line, Cells) :-
    string_codes(Line, Codes),
    code_cells(Codes, Cells).

code_cells([], []).
code_cells([R0, C0|Codes], [Cell|Cells]) :-
    Cell is R0 * 65536 + C0,
    code_cells(Codes, Cells).

given_codes([], []).
given_codes([R0, C0, Code|Codes], [g(Cell, Char)|Givens]) :-
    Cell is R0 * 65536 + C0,
    char_code(Char, Code),
    given_codes(Codes, Givens).

solution_line(Solution, [Solution, "\n"|Tail], Tail).

%   run_puzzle(+Puzzle, +Strategy, +Seed, +Mode, +TimeLimit, -Result):
%   run/5 on Puzzle = p(Words, Sites, Givens): Words as char lists, Sites
%   as lists of cells, Givens as g(Cell, Char) terms.  A cell is any ground
%   term that equals another exactly when the cells are the same (Row-Col,
%   or one integer).  Puzzle may also be text(WordsText, SitesText,
%   GivensText), as solve/8 takes it, read into those terms under the time
%   limit: reading a dictionary of 66,000 words took 0.2-1 s, which a time
%   limit that began after it did not count.
run_puzzle(Puzzle, Strategy, Seed, Mode, Limits,
           result(Status, Solutions, Count, Nodes, Backtracks)) :-
    known_strategy(Strategy, Name, Family),
    seed_applies(Seed, Strategy, Name),
    limits(Limits, TimeLimit, NodeLimit),
    reset_counters(NodeLimit),
    retractall(found(_)),
    mode_limit(Mode, Max, Keep),
    Collect = ( puzzle_terms(Puzzle, Words, Sites, Givens),
                layout(Sites, Givens, Board, Arcs, Crossings),  % timed: it can be big
                collect(s(Family, Strategy, Seed, Words, Board, Arcs, Crossings),
                        Max, Keep)
              ),
    setup_call_cleanup(
        true,
        ( (   catch(limited(TimeLimit, Collect), time_limit_exceeded, fail)
          ->  TimedOut = false
          ;   TimedOut = true
          ),
          counter(solutions, Count),
          counter(nodes, Nodes),
          counter(backtracks, Backtracks),
          findall(S, found(S), Solutions)
        ),
        forget_search),
    status(TimedOut, Count, Status).

%   limits(+Limits, -TimeLimit, -NodeLimit): a search's limits, Limits
%   its TimeLimit (none or seconds) or limits(TimeLimit, NodeLimit),
%   NodeLimit the most nodes it may count (none or an integer >= 0;
%   kernel:count_node/0 keeps it).
limits(limits(TimeLimit, NodeLimit), TimeLimit, NodeLimit) :-
    !.
limits(TimeLimit, TimeLimit, none).

%   puzzle_terms(+Puzzle, -Words, -Sites, -Givens): the terms of a
%   puzzle given as terms or as solve/8's text.
puzzle_terms(p(Words, Sites, Givens), Words, Sites, Givens).
puzzle_terms(text(WordsText, SitesText, GivensText), Words, Sites, Givens) :-
    text_lines(WordsText, WordLines),
    maplist(string_chars, WordLines, Words),
    text_sites(SitesText, GivensText, Sites, Givens).

%   forget_search: what a search leaves behind, dropped however it ended
%   (solutions, a time limit, an error or an interrupt): the stored
%   solutions and the families' global variables.  The counters stay, to
%   be read; the next search resets them.
forget_search :-
    retractall(found(_)),
    forget_globals.

%   search_global(?Name): a global variable a family's search sets
%   (multifile, declared by the family).
forget_globals :-
    forall(search_global(Name), nb_delete(Name)).

mode_limit(first(N), N, true).
mode_limit(all, none, true).
mode_limit(count, none, false).


status(true, _, timeout) :- !.
status(false, 0, unsolvable) :- !.
status(false, _, solved).

%   collect(+Search, +Max, +Keep) succeeds once, after Max solutions or
%   when the search space is exhausted.  Search is s(Family, Strategy,
%   Seed, Words, Board, Arcs, Crossings).
collect(s(Family, Strategy, Seed, Words, Board, Arcs, Crossings), Max, Keep) :-
    (   search(Family, Strategy, Seed, Words, Board, Arcs, Crossings),
        count_solution,
        keep_solution(Keep, Board),
        Max \== none,
        counter(solutions, N),
        N >= Max
    ->  true
    ;   true
    ).

keep_solution(false, _).
keep_solution(true, Board) :-
    site_chars(Board, Chars),
    string_chars(String, Chars),
    assertz(found(String)).

%   site_chars(+Board, -Chars): append/2, which would link must_be/2 on
%   first use (under a time limit, where an interrupt can leave it undefined).
site_chars([], []).
site_chars([Vars|Sites], Chars) :-
    append(Vars, Rest, Chars),
    site_chars(Sites, Rest).

                 /*******************************
                 *          INTERRUPTS          *
                 *******************************/

%   interrupt_search(+Signal): stop the search under way, leaving nothing
%   behind (run_puzzle/6's cleanup).  The Python bridge makes it the
%   handler of int (on_signal/3) and raises that signal in the searching
%   thread when the user presses Ctrl-C; the exception reaches it as the
%   query's error.  on_signal/3 also takes SIGINT from the operating
%   system, even with signals off (pyswip starts Prolog so); where SIGINT
%   had its default action (the command line's), the bridge puts it back.

interrupt_search(_Signal) :-
    throw(crossword_interrupted).

                 /*******************************
                 *      LINKED BEFORE A SEARCH  *
                 *******************************/

%   link_libraries: resolve, once at load time, every predicate that the
%   engine's modules and the library modules they import from call but
%   have not linked yet (library(lists) calls must_be/2, for one).  Left
%   to the autoloader such a predicate is linked on its first call, which
%   may come under a time limit: an interrupt in the middle of autoloading
%   left lists:must_be/2 undefined for the rest of the process.  The
%   modules those libraries load in turn are not walked: they run only on
%   a path that ends the search anyway (library(debug) reports a failed
%   assertion) or at load time (library(predicate_options) reads
%   library(time)'s declarations), and linking them loaded a dozen more
%   libraries, 0.06 s of CPU at every start.
link_libraries :-
    module_property(crossword, file(File)),
    file_directory_name(File, Dir),
    findall(M, ( module_property(M, file(F)), file_directory_name(F, Dir) ), Ours),
    link_modules(Ours),                 % first: it may load more libraries
    findall(L, ( member(M, Ours),
                 predicate_property(M:H, imported_from(L)),
                 \+ predicate_property(M:H, built_in)
               ), Libraries0),
    sort(Libraries0, Libraries),
    link_modules(Libraries).

link_modules(Modules) :-
    forall(( member(M, Modules), unlinked(M, Head) ), link(M:Head)).

%   unlinked(+M, -Head): a predicate M calls, undefined so far (checked
%   without autoloading it).
unlinked(M, Head) :-
    findall(H, '$c_current_predicate'(_, M:H), Heads),
    member(Head, Heads),
    \+ '$get_predicate_attribute'(M:Head, defined, 1).

%   link(+Goal): autoload Goal's predicate if a library has it; one that
%   none has stays undefined, as it would be anyway.
link(M:Head) :-
    functor(Head, Name, Arity),
    (   '$find_library'(M, Name, Arity, _, _)
    ->  '$define_predicate'(M:Head)
    ;   true
    ).

:- initialization(link_libraries).
