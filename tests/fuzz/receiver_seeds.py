#!/usr/bin/env python3
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Writes the seed inputs of tilereceiver-fuzz into corpus/tilereceiver/.

Each seed is a sender session that takes the receiver deep into a state
(whole TCP and UDP sessions, loss, forged and far datagrams, a passphrase
with sealed and tampered data, caps changes, garbage, abandons), for the
mutations to start from; the gate run replays the corpus. The inputs
merged from long runs (named by their SHA-1) live next to them; this
script only rewrites the seed-* files. Those were picked from a long
run's corpus by a merge without hit counts over the seeds, keeping the
inputs that added at least two edges each (one-edge gains are mostly the
scheduler's), for about 100 files in all:

    run.sh -t tilereceiver /tmp/w long 600
    mkdir /tmp/m && cp corpus/tilereceiver/* /tmp/m
    /tmp/w/tilereceiver-fuzz -merge=1 -use_counters=0 \
        -merge_control_file=/tmp/mcf /tmp/m /tmp/w/corpus-tilereceiver

An input (see tilereceiver-fuzz.c) is two setting bytes, then operations:
an opcode byte (modulo N_OPS) and its operand bytes, zeros past the end.

    byte 0: 0x01 passphrase, 0x02 tile meta on buffers, 0x04 stats every
            20 ms, 0x08 every 4th buffer acquire fails (no buffer, or one
            too small), 0x10 UDP GRO,
            0x20 stepped off, 0x40 the consumer stops at ERROR/EOS, 0x80
            every buffer acquire takes 10 ms
    byte 1: bits 0-1 timer factor (1.5, 0.25, 4, 1000), 0x04 reconnect,
            0x08 no keep_last, 0x10 a 64 MiB receive buffer asked for

The operands of each operation are those of the builders below (the
encoding is the C file's; this file only names it).

    tests/fuzz/receiver_seeds.py        rewrite the seed files (committed)
    tests/fuzz/receiver_seeds.py FILE   print the operations of an input
"""
from pathlib import Path

(CONFIG, AUTH, ACCEPT, ECHO, FRAME, TILE, DGRAM, KEEPALIVE, EOS, WAIT, SLEEP,
 RAW_CTL, CTL_MSG, REFUSE, TILE_RAW, DGRAM_RAW, CLOSE_UNIT, CLOSE_CTL, FLUSH,
 READ_CTL, RECONNECT, STATS_OP) = range(22)

# settings, byte 0
(PASSPHRASE, TILE_META, STATS, FAILING_POOL, GRO, UNSTEPPED, STOP_AT_END,
 SLOW_POOL) = (0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80)
# byte 1
(FACTOR_QUARTER, FACTOR_4, FACTOR_1000, RECONNECT_ON, NO_KEEP_LAST,
 BIG_RCVBUF) = (1, 2, 3, 0x04, 0x08, 0x10)

RATE_NONE, RATE_1000, RATE_30, RATE_0 = range(4)
GRAY8, GRAY8_RAW_CAPS, BC1 = 0, 2, 3


def config(udp=False, units=1, width=16, height=4, kind=GRAY8, rate=RATE_1000,
           mismatch=False, packet=16, token=0, generation=0,
           restart_frames=False, keep_units=False, raw_caps=b""):
    """A CONFIG. width: a multiple of 4 up to 256 (BC1: 128); height: 1 to
    64 (BC1: a multiple of 4 up to 32); packet: 4 to 256 bytes, a multiple
    of 4, or any up to 64; generation: 0 for the next one."""
    assert 1 <= units <= 4 and width % 4 == 0
    a = ((units - 1) << 1) | (kind << 3) | (0x20 if mismatch else 0) | (
        rate << 6)
    if kind == BC1:
        assert height % 4 == 0
        b, c = width // 4 - 1, height // 4 - 1
    else:
        b, c = width // 4 - 1, height - 1
    c |= 0x80 if udp else 0
    d = (token << 6) | (0x20 if keep_units else 0) | (
        0x10 if restart_frames else 0)
    if packet % 4 == 0 and 4 <= packet <= 256:
        e = (packet - 4) // 4
    else:
        assert 1 <= packet <= 64
        e = 0x40 | (packet - 1)
    tail = bytes([len(raw_caps)]) + raw_caps if kind == GRAY8_RAW_CAPS \
        else b""
    return bytes([CONFIG, a, b, c, d, e, generation]) + tail


def auth(salt=0, wrong=False, silent=False, bad_proof=False, clear=False,
         nonce=0):
    """The sender's CHALLENGE and AUTH: salt 0 or 1, or the secret of
    another passphrase (wrong); silent: no AUTH after the CHALLENGE."""
    a = (2 if wrong else salt) | (0x04 if silent else 0) | (
        0x08 if bad_proof else 0) | (0x10 if clear else 0)
    return bytes([AUTH, a, nonce])


def accept(ms=124, refuse_first=False, close_first=False,
           garbage_first=False):
    """Waits up to ms (< 128) for the units to connect."""
    action = 4 if refuse_first else 5 if close_first else 6 if garbage_first \
        else 0
    return bytes([ACCEPT, (ms // 4) | (action << 5)])


def echo(ms=120, refuse_first=False, ignore_first=False, short_first=False,
         wrong_type_first=False, long_refusal=False):
    """Waits up to ms (< 128) for the units' hellos; long_refusal (with
    refuse_first, ms odd): a reason longer than 56 bytes."""
    if long_refusal:
        ms |= 4
    action = 4 if refuse_first else 5 if ignore_first else 6 if short_first \
        else 7 if wrong_type_first else 0
    return bytes([ECHO, (ms // 4) | (action << 5)])


def near(delta=0):
    """A frame number: the next one plus delta (-2..5)."""
    assert -2 <= delta <= 5
    return 8 + delta + 2


def ahead(n):
    """The next frame number plus 3n (n < 96)."""
    return 128 + n


def top(n=0):
    """2^64 - 1 - n."""
    return 224 + n


def frame(f=near(), wait=True, lose=None, abandon=None, parts=1,
          backwards=False, twice=False, seed=0):
    """A whole frame on every unit. UDP: lose=(unit, datagram < 8) drops
    one datagram. TCP: abandon=unit, parts (1 to 4) per tile."""
    mode = 0x20 if wait else 0
    if lose is not None:
        mode |= 1
        seed = lose[0] | (lose[1] << 2) | (seed & 0x01)
    elif abandon is not None:
        mode |= 1
        seed = abandon | (seed & ~3)
    mode |= ((parts - 1) & 3) << 1
    mode |= (0x40 if backwards else 0) | (0x80 if twice else 0)
    return bytes([FRAME, f, mode, seed])


def tile(unit=0, f=0, parts=1, abandon=False, wrong_gen=False, lie=False,
         tamper=False, clear=False, cut=False, next_frame_parts=False,
         seed=0):
    """One unit's tile; f=0: the unit's next frame; next_frame_parts: the
    parts after the first say the next frame."""
    seed = (seed & 0x7f) | (0x80 if next_frame_parts else 0)
    mode = (parts - 1) | (0x04 if abandon else 0) | (
        0x08 if wrong_gen else 0) | (0x10 if lie else 0) | (
        0x20 if tamper else 0) | (0x40 if clear else 0) | (
        0x80 if cut else 0)
    return bytes([TILE, unit, f, mode, seed])


def dgram(unit=0, f=near(), first=0, count=1, wrong_token=False,
          wrong_gen=False, other_unit=False, clear=False, tamper=False,
          short=False, backwards=False, twice=False, seed=0):
    """Datagrams first to first+count-1 of a unit's tile."""
    mode = (1 if wrong_token else 0) | (2 if wrong_gen else 0) | (
        4 if other_unit else 0) | (8 if clear else 0) | (
        0x10 if tamper else 0) | (0x20 if short else 0) | (
        0x40 if backwards else 0) | (0x80 if twice else 0)
    return bytes([DGRAM, unit, f, first, count - 1, mode, seed])


def keepalive():
    return bytes([KEEPALIVE])


def eos():
    return bytes([EOS])


def wait(ms=40, frames=1):
    """Until frames more frames came out, an ERROR or EOS, or ms < 64."""
    assert ms < 64 and 1 <= frames <= 4
    return bytes([WAIT, (ms << 2) | (frames - 1)])


def sleep(ms=5):
    return bytes([SLEEP, ms])


def raw_ctl(data):
    return bytes([RAW_CTL, len(data)]) + data


def ctl_msg(type_, payload=b"", claimed_extra=None):
    lenb = len(payload) | (0x80 if claimed_extra is not None else 0)
    return bytes([CTL_MSG, type_, lenb]) + payload + (
        bytes([claimed_extra]) if claimed_extra is not None else b"")


def refuse(code=5, reason=b"stop"):
    return bytes([REFUSE, code, len(reason)]) + reason


def tile_raw(unit, data):
    return bytes([TILE_RAW, unit, len(data)]) + data


def dgram_raw(unit, data, kind=0):
    """kind 0: the bytes; 1: a datagram of the session with (position,
    value) pairs XORed in; 2: a control message header, then the bytes;
    3: as 1, from another host (127.0.0.2)."""
    return bytes([DGRAM_RAW, unit, len(data) | (kind << 6)]) + data


def close_unit(unit, how=0):
    """how: 0 close, 1 reset, 2 shut down writing."""
    return bytes([CLOSE_UNIT, unit | (how << 2)])


def close_ctl(how=0):
    return bytes([CLOSE_CTL, how])


def flush():
    return bytes([FLUSH])


def read_ctl(ms=10):
    return bytes([READ_CTL, ms])


def stats():
    """gst_tile_receiver_get_stats (), as a property read of tilesrc."""
    return bytes([STATS_OP])


def reconnect(extra_ms=100):
    return bytes([RECONNECT, extra_ms])


# the salt of auth() (salt_a of tilereceiver-fuzz.c)
SALT_A = bytes([0x5a, 0x5a, 0x5a, 1]) + bytes(12)


def seed(settings0=0, settings1=0, *ops):
    return bytes([settings0, settings1]) + b"".join(ops)


def frames(n, **kw):
    return b"".join(frame(**kw) for _ in range(n))


SEEDS = {
    # TCP: two units, frames whole and in parts, an abandon, EOS
    "seed-tcp-session": seed(
        TILE_META, 0,
        config(units=2), accept(), frames(3),
        frame(parts=3), frame(abandon=1), frame(parts=2, seed=5),
        keepalive(), eos(), close_unit(0), close_unit(1), wait(60)),
    # TCP: a tile in parts of another frame, a stall inside a tile, a
    # tile that lies about its size
    "seed-tcp-broken-tiles": seed(
        0, 0,
        config(units=3, height=6), accept(), frame(),
        tile(0, parts=2, cut=True), tile(1), tile(2), sleep(5),
        tile(0, f=near(3)), wait(60)),
    "seed-tcp-lie": seed(
        STOP_AT_END, 0,
        config(units=2), accept(), frame(), tile(1, lie=True), wait(40)),
    # TCP: a unit skips a frame, repeats one, goes backwards
    "seed-tcp-skips": seed(
        TILE_META, 0,
        config(units=2), accept(), frame(),
        tile(0), tile(0), tile(1, f=near(2)), tile(1), frame(),
        tile(0, f=near(-2)), wait(40)),
    # UDP: one unit, hello echoed, whole frames, a lost datagram (the
    # frame leaves on its timer), a frame far ahead, a wrong token,
    # duplicates, backwards, EOS
    "seed-udp-session": seed(
        TILE_META | STATS, 0,
        config(udp=True, packet=16), echo(), frames(2),
        frame(lose=(0, 2)), frame(f=ahead(40), wait=False),
        dgram(count=4, wrong_token=True), frame(twice=True),
        frame(backwards=True), frame(lose=(0, 0)), wait(60),
        keepalive(), eos(), wait(40)),
    # UDP: three units, GRO, a unit that answers late, frames with gaps,
    # forged datagrams ahead, one near the top of the frame numbers
    "seed-udp-units": seed(
        GRO, FACTOR_QUARTER,
        config(udp=True, units=3, width=32, height=9, packet=8),
        echo(ignore_first=True), echo(), frames(2),
        dgram(unit=1, f=ahead(1)), dgram(unit=2, f=ahead(20)),
        frame(lose=(1, 3)), dgram(unit=0, f=top()),
        frame(), frame(f=near(2)), wait(60), keepalive(), frames(2),
        eos(), wait(40)),
    # UDP: datagrams of the wrong generation, unit, size, and raw ones
    "seed-udp-invalid": seed(
        STATS, 0,
        config(udp=True, units=2, packet=12), echo(), frame(),
        dgram(wrong_gen=True, count=2), dgram(other_unit=True),
        dgram(short=True), dgram(first=200),
        dgram_raw(0, b"\x00\x07\x08\x01\x24\x05\x20\x40", kind=1),
        dgram_raw(1, b"GSBU\x00\x04junk"), dgram_raw(0, b"\x03\x00", kind=2),
        frame(), wait(40)),
    # UDP: the hello refused, answered short, with the wrong type
    "seed-udp-hello-refused": seed(
        0, 0, config(udp=True), echo(refuse_first=True), wait(60)),
    "seed-udp-hello-refused-long": seed(
        0, 0, config(udp=True, packet=4),
        echo(refuse_first=True, long_refusal=True),
        *[wait(60), keepalive()] * 7),
    "seed-udp-hello-odd": seed(
        0, 0, config(udp=True, units=2), echo(short_first=True),
        echo(wrong_type_first=True), frame(), wait(60)),
    # a passphrase: UDP with sealed datagrams and tampered ones, then TCP
    # with sealed tiles, one tampered
    "seed-sealed-udp": seed(
        PASSPHRASE | TILE_META, 0,
        auth(), config(udp=True, packet=16), echo(), frames(2),
        dgram(tamper=True, count=2), dgram(clear=True), frame(),
        frame(lose=(0, 1)), wait(60), eos(), wait(40)),
    "seed-sealed-tcp": seed(
        PASSPHRASE, 0,
        auth(salt=1), config(units=2), accept(), frames(2),
        frame(parts=2), frame(abandon=0), tile(0), tile(1, tamper=True),
        wait(40)),
    "seed-sealed-clear-tile": seed(
        PASSPHRASE, 0,
        auth(), config(), accept(), frame(), tile(0, clear=True),
        *[wait(60), keepalive()] * 6),
    # the handshake gone wrong
    "seed-auth-wrong": seed(PASSPHRASE, 0, auth(wrong=True), wait(60)),
    "seed-auth-bad-proof": seed(PASSPHRASE, 0, auth(bad_proof=True),
                                wait(60)),
    "seed-auth-silent": seed(PASSPHRASE, 0, auth(silent=True), sleep(5),
                             config(), wait(60)),
    "seed-auth-unexpected": seed(0, 0, auth(), wait(40)),
    "seed-no-challenge": seed(PASSPHRASE, 0, config(), wait(40)),
    # a caps change mid-stream: TCP to UDP to BC1 over TCP
    "seed-caps-change": seed(
        TILE_META, 0,
        config(units=2), accept(), frames(2),
        config(udp=True, width=32, height=8, packet=32, restart_frames=True),
        echo(), frames(2), frame(lose=(0, 1)),
        config(kind=BC1, width=16, height=8, units=2), accept(), frames(2),
        eos(), close_unit(0), close_unit(1), wait(60)),
    # a CONFIG whose caps do not describe its frames, and raw caps
    "seed-config-mismatch": seed(0, 0, config(mismatch=True), wait(40)),
    "seed-config-raw-caps": seed(
        0, 0, config(kind=GRAY8_RAW_CAPS,
                     raw_caps=b"video/x-raw,format=(string)GRAY8,"
                     b"width=(int)16,height=(int)4"),
        accept(), frames(2), wait(40)),
    # CONFIGs in a flood
    "seed-config-flood": seed(
        0, 0, *[config(units=1 + i % 2) for i in range(12)], wait(60)),
    # garbage and odd messages on the control connection
    "seed-garbage-control": seed(
        0, 0, config(), accept(), frame(),
        raw_ctl(b"GSBC\x00\x04\x00\x06\x00\x00\x00\x08\x00\x00"),
        raw_ctl(b"\xff" * 20), wait(40)),
    "seed-ctl-msgs": seed(
        0, 0, config(udp=True), echo(), frame(),
        ctl_msg(6, bytes(8)), ctl_msg(6, bytes(3)),
        ctl_msg(2, b"\x00\x01", claimed_extra=3), wait(40)),
    "seed-ctl-unexpected": seed(
        0, 0, config(), accept(), ctl_msg(8, bytes(8)), wait(40)),
    "seed-refused": seed(0, 0, refuse(4, b"busy here"), wait(40)),
    "seed-refused-session": seed(
        0, 0, config(), accept(), frame(), refuse(5, b"bye"), wait(40)),
    "seed-eos-bad": seed(0, 0, config(), accept(), ctl_msg(5, b"x"),
                         wait(40)),
    # units refused, closed, greeted with garbage; raw tile bytes
    "seed-units-refused": seed(
        0, 0, config(units=2), accept(refuse_first=True), wait(60)),
    "seed-units-closed": seed(
        0, 0, config(units=2), accept(close_first=True), wait(60)),
    "seed-units-garbage": seed(
        0, 0, config(units=2), accept(garbage_first=True), frame(),
        tile_raw(1, b"GSBT\x00\x00\x00\x01" + bytes(24)), wait(60)),
    "seed-unit-reset": seed(
        0, 0, config(units=2), accept(), frame(), tile(0),
        close_unit(1, how=1), wait(60)),
    # the control connection closed, reset, half-closed after EOS
    "seed-control-closed": seed(
        0, 0, config(udp=True), echo(), frame(), close_ctl(0), wait(60)),
    "seed-control-eos-close": seed(
        0, 0, config(), accept(), frame(), eos(), close_ctl(2),
        close_unit(0), wait(60)),
    # a failing pool, flushes, no keep_last, stop at the first error
    "seed-failing-pool": seed(
        FAILING_POOL | STOP_AT_END, NO_KEEP_LAST,
        config(udp=True, units=2), echo(), frames(5), flush(),
        frames(3), wait(40)),
    "seed-failing-pool-tcp": seed(
        FAILING_POOL, 0, config(units=2), accept(), frames(5), wait(40)),
    "seed-flush": seed(
        UNSTEPPED | TILE_META, FACTOR_4,
        config(udp=True), echo(), frame(), flush(), frame(lose=(0, 1)),
        flush(), frames(2), wait(60)),
    # the receiver's timeout: silence
    "seed-timeout": seed(
        0, FACTOR_1000, config(udp=True), echo(), frame(lose=(0, 0)),
        sleep(5), *[wait(60)] * 6),
    # reconnect: the session lost, the receiver comes back
    "seed-reconnect": seed(
        0, RECONNECT_ON, config(units=2), accept(), frame(),
        close_unit(0, how=1), close_ctl(1), reconnect(), config(),
        accept(), frames(2), wait(40)),
    "seed-reconnect-udp": seed(
        STATS, RECONNECT_ON, config(udp=True), echo(), frame(),
        close_ctl(0), reconnect(), config(udp=True), echo(), frames(2),
        read_ctl(20), wait(40)),
    # the handshake gone wrong, in messages from the input: a CONFIG that
    # does not parse, a message that is not the CONFIG, a CHALLENGE that
    # does not parse, a good one (the salt of auth(), its key is cached)
    # then an AUTH that does not parse, or a CONFIG instead of the AUTH
    "seed-handshake-bad-config": seed(0, 0, ctl_msg(2, b"\x00" * 9),
                                      wait(40)),
    "seed-handshake-not-config": seed(0, 0, ctl_msg(5), wait(40)),
    "seed-challenge-short": seed(PASSPHRASE, 0, ctl_msg(9, SALT_A[:9]),
                                 wait(40)),
    "seed-challenge-bad-auth": seed(
        PASSPHRASE, 0, ctl_msg(9, SALT_A + bytes(16)), read_ctl(30),
        ctl_msg(10, bytes(5)), wait(40)),
    "seed-challenge-then-config": seed(
        PASSPHRASE, 0, ctl_msg(9, SALT_A + bytes(16)), read_ctl(30),
        config(), wait(40)),
    # UDP: no echo at all (the units give up), datagrams before the echo,
    # datagrams from another host
    "seed-udp-no-echo": seed(
        0, 0, config(udp=True, units=2), *[wait(60), keepalive()] * 7),
    "seed-udp-before-echo": seed(
        TILE_META, 0, config(udp=True), echo(ignore_first=True), frame(),
        dgram_raw(0, b"\x00\x00", kind=3), frame(), wait(40)),
    # TCP: a tile of another generation, frames going backwards, a part of
    # the next frame inside a tile
    "seed-tcp-wrong-generation": seed(
        0, 0, config(units=2), accept(), frame(), tile(0, wrong_gen=True),
        wait(40)),
    "seed-tcp-backwards": seed(
        0, 0, config(units=2), accept(), frames(2), tile(1, f=near(-2)),
        wait(40)),
    "seed-tcp-part-of-next": seed(
        0, 0, config(units=2), accept(), frame(),
        tile(0, parts=3, next_frame_parts=True), wait(40)),
    # reconnect after a unit's connection is reset (the session is lost)
    "seed-reconnect-unit-reset": seed(
        STATS, RECONNECT_ON, config(units=2), accept(), frame(),
        close_unit(1, how=1), reconnect(), config(units=2), accept(),
        frames(2), stats(), wait(40)),
    # the races this target found in join_units_locked () (fixed in
    # 9b23812; one run in a few hundred hit them): the element stops while
    # the control thread ends the session and a unit is busy (a slow
    # pool), and a caps change right before the session ends
    "seed-regress-stop-teardown": seed(
        SLOW_POOL, 0, config(units=2), accept(), tile(0), close_ctl(1),
        sleep(2)),
    "seed-regress-start-teardown": seed(
        0, 0, config(units=2), accept(), frame(), config(units=1),
        refuse(5, b"x")),
    # a receive buffer larger than the kernel grants, the statistics read
    "seed-big-buffer": seed(
        STATS, BIG_RCVBUF, config(udp=True, units=2), echo(), frame(),
        stats(), frame(lose=(1, 0)), stats(), config(units=2), accept(),
        frame(), stats(), wait(40)),
}


NAMES = ["CONFIG", "AUTH", "ACCEPT", "ECHO", "FRAME", "TILE", "DGRAM",
         "KEEPALIVE", "EOS", "WAIT", "SLEEP", "RAW_CTL", "CTL_MSG", "REFUSE",
         "TILE_RAW", "DGRAM_RAW", "CLOSE_UNIT", "CLOSE_CTL", "FLUSH",
         "READ_CTL", "RECONNECT", "STATS"]


def decode(data):
    """The operations of an input, one per line, as the C file reads them
    (fixed operands, then the bytes some take from the input)."""
    pos = 2

    def take(n):
        nonlocal pos
        got = data[pos:pos + n]
        pos += n
        return got + bytes(n - len(got))

    lines = [f"settings {data[0:1].hex()} {data[1:2].hex()}"]
    fixed = {CONFIG: 6, AUTH: 2, ACCEPT: 1, ECHO: 1, FRAME: 3, TILE: 4,
             DGRAM: 6, WAIT: 1, SLEEP: 1, CLOSE_UNIT: 1, CLOSE_CTL: 1,
             READ_CTL: 1, RECONNECT: 1, STATS_OP: 0}
    while pos < len(data) and len(lines) <= 96:
        op = data[pos] % len(NAMES)
        pos += 1
        args = take(fixed.get(op, 0))
        extra = b""
        if op == CONFIG and ((args[0] >> 3) & 3) == GRAY8_RAW_CAPS:
            n = take(1)[0] & 127
            extra = take(n)
        elif op == RAW_CTL:
            n = take(1)[0]
            extra = take(n)
        elif op == CTL_MSG:
            t, lb = take(2)
            extra = bytes([t, lb]) + take(lb & 127)
            if lb & 0x80:
                extra += take(1)
        elif op == REFUSE:
            c, n = take(2)
            extra = bytes([c, n]) + take(n & 31)
        elif op == TILE_RAW:
            u, n = take(2)
            extra = bytes([u, n]) + take(n & 127)
        elif op == DGRAM_RAW:
            u, a = take(2)
            extra = bytes([u, a]) + take(a & 63)
        lines.append(f"{NAMES[op]} {args.hex(' ')} {extra.hex(' ')}".strip())
    return "\n".join(lines)


def main():
    import sys
    if len(sys.argv) > 1:
        for name in sys.argv[1:]:
            print(f"== {name}")
            print(decode(Path(name).read_bytes()))
        return
    out = Path(__file__).resolve().parent / "corpus" / "tilereceiver"
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("seed-*"):
        old.unlink()
    for name, data in SEEDS.items():
        (out / name).write_bytes(data)
    print(f"{len(SEEDS)} seeds in {out}")


if __name__ == "__main__":
    main()
