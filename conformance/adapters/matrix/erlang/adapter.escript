#!/usr/bin/env escript
%%! -noinput
%% Conformance adapter (protocol 2, with batches) for Erlang/OTP's unicode module,
%% utf-8 only.
%%
%% decode: `valid`, `result` from unicode:characters_to_list(Bytes, utf8), which returns
%%   the list, {error, Decoded, Rest} or {incomplete, Decoded, Rest}; `strict` would need
%%   the error's length, which it does not give (Rest starts at the bad byte), so none.
%%   Declares streaming: a chunked request goes through characters_to_list chunk by
%%   chunk, the Rest of {incomplete, _, Rest} carried over to the next chunk (what the
%%   return value is for); a Rest left at the end is invalid.
%% encode: unicode:characters_to_binary([Cp], unicode, utf8): the bytes, or
%%   {error, _, _} for a surrogate or a value above U+10FFFF: `error: null`.
%% Protocol: conformance/adapters/README.md. OTP 25 has no JSON module: a small reader
%% and writer are below. stdin and stdout are raw ports (binary lines of any length).
-mode(compile).

-define(BATCH, 4096).

main(_) ->
    In = open_port({fd, 0, 1}, [binary, {line, 65536}, eof]),
    loop(In, []).

loop(Port, Acc) ->
    receive
        {Port, {data, {noeol, Part}}} -> loop(Port, [Part | Acc]);
        {Port, {data, {eol, Part}}} ->
            Line = iolist_to_binary(lists:reverse([Part | Acc])),
            Answer = try handle(strip(Line))
                     catch C:E -> io:format(standard_error, "erlang adapter: ~p:~p~n", [C, E]),
                                  unsupported(null)
                     end,
            port_command(Port, [encode_json(Answer), $\n]),
            loop(Port, []);
        {Port, eof} -> halt(0)
    end.

strip(B) ->
    case B of
        <<>> -> B;
        _ -> case binary:last(B) of $\r -> binary:part(B, 0, byte_size(B) - 1); _ -> B end
    end.

unsupported(Id) -> {obj, [{<<"id">>, Id}, {<<"unsupported">>, true}]}.

hello() ->
    [{<<"protocol">>, 2},
     {<<"name">>, iolist_to_binary(["Erlang/OTP ", erlang:system_info(otp_release),
                                    " unicode:characters_to_list / characters_to_binary"])},
     {<<"supports">>, {arr, [{obj, [{<<"encoding">>, <<"utf-8">>}, {<<"op">>, <<"decode">>},
                                    {<<"fields">>, {arr, [<<"result">>, <<"valid">>]}},
                                    {<<"streaming">>, true}]},
                             {obj, [{<<"encoding">>, <<"utf-8">>}, {<<"op">>, <<"encode">>},
                                    {<<"fields">>, {arr, [<<"bytes">>, <<"error">>]}}]}]}},
     {<<"batch">>, ?BATCH}].

get(Key, Fields) ->
    case lists:keyfind(Key, 1, Fields) of {_, V} -> V; false -> missing end.

handle(Line) ->
    case parse(Line) of
        {ok, {obj, Fields}} ->
            case get(<<"op">>, Fields) of
                <<"batch">> ->
                    Id = id_of(Fields),
                    case get(<<"requests">>, Fields) of
                        {arr, Reqs} ->
                            {obj, [{<<"id">>, Id}, {<<"responses">>, {arr, [respond_item(R) || R <- Reqs]}}]};
                        _ -> unsupported(Id)
                    end;
                _ -> respond(Fields)
            end;
        _ -> unsupported(null)
    end.

respond_item({obj, Fields}) ->
    try respond(Fields) catch _:_ -> unsupported(id_of(Fields)) end;
respond_item(_) -> unsupported(null).

id_of(Fields) -> case get(<<"id">>, Fields) of missing -> null; Id -> Id end.

respond(Fields) ->
    Id = id_of(Fields),
    Answer = case {get(<<"encoding">>, Fields), get(<<"op">>, Fields)} of
        {_, <<"hello">>} -> hello();
        {<<"utf-8">>, <<"decode">>} ->
            case {unhex(get(<<"input">>, Fields)), get(<<"chunks">>, Fields)} of
                {{ok, Bytes}, missing} -> decode(Bytes);
                {{ok, _}, {arr, Chunks}} ->
                    Parts = [unhex(C) || C <- Chunks],
                    case lists:all(fun(P) -> P =/= error end, Parts) of
                        true -> validity(stream([B || {ok, B} <- Parts], <<>>));
                        false -> none
                    end;
                _ -> none
            end;
        {<<"utf-8">>, <<"encode">>} ->
            case get(<<"codepoint">>, Fields) of
                <<"U+", Digits/binary>> when byte_size(Digits) > 0 ->
                    case is_hex(Digits) of true -> encode(binary_to_integer(Digits, 16)); false -> none end;
                _ -> none
            end;
        _ -> none
    end,
    case Answer of
        none -> unsupported(Id);
        _ -> {obj, [{<<"id">>, Id} | Answer]}
    end.

decode(Bytes) ->
    validity(case unicode:characters_to_list(Bytes, utf8) of
        L when is_list(L) -> true;
        {error, _, _} -> false;
        {incomplete, _, _} -> false
    end).

%% Chunk by chunk: the Rest of {incomplete, _, Rest} is carried over to the next chunk, as
%% the function's documentation intends; Rest left at the end is an incomplete sequence.
stream([], Pending) -> Pending =:= <<>>;
stream([Chunk | Chunks], Pending) ->
    case unicode:characters_to_list(<<Pending/binary, Chunk/binary>>, utf8) of
        L when is_list(L) -> stream(Chunks, <<>>);
        {incomplete, _, Rest} -> stream(Chunks, Rest);
        {error, _, _} -> false
    end.

validity(Valid) ->
    [{<<"valid">>, Valid}, {<<"result">>, case Valid of true -> <<"valid">>; false -> <<"invalid">> end}].

encode(Cp) ->
    case catch unicode:characters_to_binary([Cp], unicode, utf8) of
        B when is_binary(B) -> [{<<"bytes">>, << <<(hexdigit(N))>> || <<N:4>> <= B >>}];
        _ -> [{<<"error">>, null}]
    end.

is_hex(B) -> lists:all(fun(C) -> (C >= $0 andalso C =< $9) orelse (C >= $a andalso C =< $f)
                                     orelse (C >= $A andalso C =< $F) end, binary_to_list(B)).

unhex(B) when is_binary(B), byte_size(B) rem 2 =:= 0 ->
    case is_hex(B) of true -> {ok, binary:decode_hex(B)}; false -> error end;
unhex(_) -> error.

%% ---- JSON: objects are {obj, [{Key, Value}]}, arrays {arr, List}, strings binaries.
parse(B) ->
    try value(ws(B)) of
        {V, Rest} -> case ws(Rest) of <<>> -> {ok, V}; _ -> error end
    catch _:_ -> error
    end.

ws(<<C, R/binary>>) when C =:= $\s; C =:= $\t; C =:= $\n; C =:= $\r -> ws(R);
ws(B) -> B.

value(<<${, R/binary>>) -> object(ws(R), []);
value(<<$[, R/binary>>) -> array(ws(R), []);
value(<<$", R/binary>>) -> string(R, []);
value(<<"true", R/binary>>) -> {true, R};
value(<<"false", R/binary>>) -> {false, R};
value(<<"null", R/binary>>) -> {null, R};
value(B) -> number(B).

object(<<$}, R/binary>>, []) -> {{obj, []}, R};
object(<<$", R/binary>>, Acc) ->
    {K, R1} = string(R, []),
    <<$:, R2/binary>> = ws(R1),
    {V, R3} = value(ws(R2)),
    case ws(R3) of
        <<$,, R4/binary>> -> object(ws(R4), [{K, V} | Acc]);
        <<$}, R4/binary>> -> {{obj, lists:reverse([{K, V} | Acc])}, R4}
    end.

array(<<$], R/binary>>, []) -> {{arr, []}, R};
array(B, Acc) ->
    {V, R} = value(B),
    case ws(R) of
        <<$,, R1/binary>> -> array(ws(R1), [V | Acc]);
        <<$], R1/binary>> -> {{arr, lists:reverse([V | Acc])}, R1}
    end.

string(<<$", R/binary>>, Acc) -> {unicode:characters_to_binary(lists:reverse(Acc)), R};
string(<<$\\, $u, H:4/binary, R/binary>>, Acc) ->
    Cp = binary_to_integer(H, 16),
    case {Cp >= 16#D800 andalso Cp =< 16#DBFF, R} of
        {true, <<$\\, $u, L:4/binary, R1/binary>>} ->
            Lo = binary_to_integer(L, 16),
            true = Lo >= 16#DC00 andalso Lo =< 16#DFFF,
            string(R1, [16#10000 + (Cp - 16#D800) * 16#400 + (Lo - 16#DC00) | Acc]);
        _ when Cp >= 16#D800, Cp =< 16#DFFF -> string(R, [16#FFFD | Acc]);
        _ -> string(R, [Cp | Acc])
    end;
string(<<$\\, C, R/binary>>, Acc) ->
    E = case C of $" -> $"; $\\ -> $\\; $/ -> $/; $b -> 8; $f -> 12; $n -> 10; $r -> 13; $t -> 9 end,
    string(R, [E | Acc]);
string(<<C, R/binary>>, Acc) when C >= 16#20 -> string(R, [C | Acc]).

number(B) ->
    {match, [{0, N}]} = re:run(B, "^-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][-+]?[0-9]+)?", [{capture, first}]),
    true = N > 0,
    <<Text:N/binary, R/binary>> = B,
    {{num, Text}, R}.

encode_json(null) -> <<"null">>;
encode_json(true) -> <<"true">>;
encode_json(false) -> <<"false">>;
encode_json({num, Text}) -> Text;
encode_json(N) when is_integer(N) -> integer_to_binary(N);
encode_json(B) when is_binary(B) -> [$", escape(B), $"];
encode_json({arr, L}) -> [$[, lists:join($,, [encode_json(V) || V <- L]), $]];
encode_json({obj, F}) -> [${, lists:join($,, [[encode_json(K), $:, encode_json(V)] || {K, V} <- F]), $}].

escape(B) -> [esc(C) || <<C>> <= B].
esc($") -> <<"\\\"">>;
esc($\\) -> <<"\\\\">>;
esc(C) when C < 16#20 -> io_lib:format("\\u~4.16.0b", [C]);
esc(C) -> C.

hexdigit(N) when N < 10 -> $0 + N;
hexdigit(N) -> $a + N - 10.
