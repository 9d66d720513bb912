%% SPDX-License-Identifier: BSD-3-Clause
%% The workloads of Xenon's latency_probe and of its Savina suite (performance/savina), in
%% Erlang, to be run beside Xenon's by run_peers.sh. Each process counts what it sent and
%% received; the run exits 1 if a count differs from the workload's. Output:
%% PERFORMANCE_COUNTER lines, as Xenon's probes print them. Schedulers are erl's +S option:
%%   erl -noshell +S W:W -pa DIR -run xenon_peer main BENCHMARK W REPETITIONS
-module(xenon_peer).
-export([main/1]).

main([Benchmark, Workers, Repetitions]) ->
    W = list_to_integer(Workers),
    Outcomes = [run(Benchmark, W) || _ <- lists:seq(1, list_to_integer(Repetitions))],
    Sorted = lists:sort(Outcomes),
    {Seconds, Messages} = lists:nth(length(Sorted) div 2 + 1, Sorted),
    io:format("PERFORMANCE_COUNTER runtime = Erlang/OTP ~s (~p schedulers online)~n",
              [erlang:system_info(otp_release), erlang:system_info(schedulers_online)]),
    io:format("PERFORMANCE_COUNTER benchmark = ~s~n", [Benchmark]),
    io:format("PERFORMANCE_COUNTER worker-count = ~p~n", [W]),
    io:format("PERFORMANCE_COUNTER message-count = ~p~n", [Messages]),
    io:format("PERFORMANCE_COUNTER elapsed-time = ~f s~n", [Seconds]),
    io:format("PERFORMANCE_COUNTER throughput = ~f messages / s~n", [Messages / Seconds]),
    io:format("PERFORMANCE_COUNTER ns-per-message = ~p~n", [round(Seconds * 1.0e9 / Messages)]),
    halt(0).

run("latency", W) -> pingers(100 * W, 40000);  % latency_probe's defaults
run("big", _) -> pingers(120, 20000);           % Savina's
run("ping-pong", _) -> ping_pong(40000);
run("fork-join-throughput", _) -> fork_join(60, 10000);
run(Other, _) ->
    io:format(standard_error, "xenon_peer: error: unknown benchmark ~s~n", [Other]),
    halt(2).

now_ns() -> erlang:monotonic_time(nanosecond).

fail(Text, Values) ->
    io:format(standard_error, "xenon_peer: error: " ++ Text ++ "~n", Values),
    halt(1).

%% --- latency and big: every process pings random others, one ping at a time --------------

pingers(Count, Pings) ->
    Sink = self(),
    Pids = [spawn(fun() -> pinger_setup(Sink, Pings, I) end) || I <- lists:seq(0, Count - 1)],
    Peers = list_to_tuple(Pids),
    [Pid ! {setup, Peers} || Pid <- Pids],
    [receive ready -> ok end || _ <- Pids],
    Start = now_ns(),
    [Pid ! start || Pid <- Pids],
    {Sent, Pongs} = collect_done(Count, 0, 0),
    End = now_ns(),
    [Pid ! {report, Sink} || Pid <- Pids],
    Received = lists:sum([receive {received, R} -> R end || _ <- Pids]),
    Expected = Count * Pings,
    if
        Sent =/= Expected; Pongs =/= Sent; Received =/= Sent ->
            fail("counts differ: ~p pings sent, ~p received, ~p pongs, expected ~p", [Sent, Received, Pongs, Expected]);
        true -> ok
    end,
    [Pid ! stop || Pid <- Pids],
    {(End - Start) / 1.0e9, 2 * Sent}.

collect_done(0, Sent, Pongs) -> {Sent, Pongs};
collect_done(Left, Sent, Pongs) ->
    receive {done, S, P} -> collect_done(Left - 1, Sent + S, Pongs + P) end.

pinger_setup(Sink, Pings, Position) ->
    rand:seed(exsss, {Position + 1, 7, 11}),
    receive {setup, Peers} -> Sink ! ready, pinger(Sink, Peers, Position, Pings, 0, 0, 0) end.

%% State: pings left to send, sent, pings received, pongs received.
pinger(Sink, Peers, Position, Left, Sent, Received, Pongs) ->
    receive
        start ->
            ping_someone(Peers, Position),
            pinger(Sink, Peers, Position, Left - 1, Sent + 1, Received, Pongs);
        {ping, From} ->
            From ! pong,
            pinger(Sink, Peers, Position, Left, Sent, Received + 1, Pongs);
        pong when Left > 0 ->
            ping_someone(Peers, Position),
            pinger(Sink, Peers, Position, Left - 1, Sent + 1, Received, Pongs + 1);
        pong ->
            Sink ! {done, Sent, Pongs + 1},
            pinger(Sink, Peers, Position, Left, Sent, Received, Pongs + 1);
        {report, To} ->
            To ! {received, Received},
            pinger(Sink, Peers, Position, Left, Sent, Received, Pongs);
        stop -> ok
    end.

%% Uniform over every process but this one.
ping_someone(Peers, Position) ->
    Pick = rand:uniform(tuple_size(Peers) - 1) - 1,
    Target = if Pick >= Position -> Pick + 1; true -> Pick end,
    element(Target + 1, Peers) ! {ping, self()}.

%% --- ping-pong: two processes, one ball --------------------------------------------------

ping_pong(RoundTrips) ->
    Sink = self(),
    Pong = spawn(fun ponger/0),
    Ping = spawn(fun() -> receive start -> ball(Pong, RoundTrips), Sink ! done end end),
    Start = now_ns(),
    Ping ! start,
    receive done -> ok end,
    End = now_ns(),
    Pong ! stop,
    {(End - Start) / 1.0e9, 2 * RoundTrips}.

ponger() ->
    receive
        {ping, From} -> From ! pong, ponger();
        stop -> ok
    end.

ball(_, 0) -> ok;
ball(Pong, Left) ->
    Pong ! {ping, self()},
    receive pong -> ball(Pong, Left - 1) end.

%% --- fork-join throughput (Savina fjthrput): a driver process, as in Xenon's --------------

fork_join(Actors, Messages) ->
    Sink = self(),
    Driver = spawn(fun() -> driver(Sink, Actors, Messages) end),
    Start = now_ns(),
    Driver ! start,
    Received = receive {done, Total} -> Total end,
    End = now_ns(),
    if
        Received =/= Actors * Messages -> fail("fork-join: ~p messages received", [Received]);
        true -> ok
    end,
    {(End - Start) / 1.0e9, Actors * Messages}.

driver(Sink, Actors, Messages) ->
    Self = self(),
    Workers = [spawn(fun() -> throughput(Self, Messages, 0) end) || _ <- lists:seq(1, Actors)],
    receive start -> ok end,
    send_rounds(Workers, Messages),
    Total = lists:sum([receive {done, N} -> N end || _ <- Workers]),
    Sink ! {done, Total}.

send_rounds(_, 0) -> ok;
send_rounds(Workers, Left) ->
    [W ! {work, 37.2} || W <- Workers],
    send_rounds(Workers, Left - 1).

throughput(Driver, Messages, Messages) -> Driver ! {done, Messages};
throughput(Driver, Messages, Received) ->
    receive
        {work, Theta} ->
            Sine = math:sin(Theta),
            if
                Sine * Sine =< 0 -> fail("fjthrput: sin^2 of theta came out <= 0", []);
                true -> ok
            end,
            throughput(Driver, Messages, Received + 1)
    end.
