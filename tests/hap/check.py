#!/usr/bin/python3
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The hap suite: Hap .mov files played and recorded as a user would, with
gst-launch-1.0, ffmpeg and ffprobe (run.sh sets up the environment and
installs ffmpeg; Python 3's standard library only).

A. Playback of ffmpeg-made files (hap, hap_alpha, hap_q; snappy with 1 and
   4 chunks, none; 200x120, not a multiple of 16), each decoded by
   (i) filesrc ! qtdemux ! hapdec ! bcdec, (ii) uridecodebin,
   (iii) playbin (video-sink=a bin ending in filesink), (iv)
   uridecodebin3 and (v) playbin3 (hapdec decodes: the decoder ends
   their chain), (ii) to (v) with headless GL (egl-device) and with GL
   unavailable (glx, no DISPLAY); compared with ffmpeg's rgba decoding:
   same frame count, every channel within TOLERANCE levels (RGB; alpha
   too for hap_alpha).
B. Recording with examples/record-hap.sh (bc1, bc3, ycocg, bc4, bc7,
   bc6h; videotestsrc's ball, on a transparent background for bc3 and bc7;
   202x118, partial blocks; compressor snappy/none, chunks 1/4): ffprobe's
   codec, tag, size, frame count and duration; the Hap frame headers
   (format, compressor, chunks); the file decoded by ffmpeg and by hapdec
   ! bcdec within TOLERANCE; hapdec ! bcdec byte-identical to bcdec of the
   encoder's own output (Hap wraps the blocks losslessly). Hap7 (BC7)
   and HapH (BC6H): ffmpeg 5.1 has no decoder for them, so their decoding
   must fail, and only theirs.
C. examples/record-tile-hap.sh against a tilesink sender: ended by the
   sender's EOS, and by its SECONDS argument; ffprobe and ffmpeg read it.
D. Damaged ffmpeg-made files (bytes flipped or zeroed in the frames,
   sizes that claim more than the frame, frames cut short, the file cut
   short) through qtdemux ! hapdec ! bcdec ! filesink (to count the
   frames) with G_DEBUG=fatal-criticals: exit status 0 or 1, never a
   signal; the frames known to be broken are dropped with a warning each
   and the others decoded.

    check.py --examples DIR --work DIR

Exit status 0: everything passed; 1: something failed (see the table)."""
import argparse
import json
import operator
import os
import random
import re
import signal
import socket
import struct
import subprocess
import sys
import time

TOLERANCE = 2          # levels, per channel, between two decoders
# Hap Q (YCoCg-BC3) decoded by the GPU (glbcupload): the Y, Co and Cg
# roundings of S3TC add up, up to 3 against bcdec (docs/elements.md,
# glbcupload; tests/check/elements/glbcupload.c YCOCG_TOLERANCE)
GPU_YCOCG_TOLERANCE = 3
FPS = 30
# ffmpeg-made files: ffmpeg's Hap encoder wants multiples of 4
PW, PH, PFRAMES = 200, 120, 12
# recordings: partial 4x4 blocks on both axes
RW, RH, RFRAMES = 202, 118, 12
TIMEOUT = 90           # seconds, any one command
PLAY_TIMEOUT = 20      # seconds, a playback of 12 small frames (< 1 s)
HUNG = {}              # playback checks that hung: not run again

GL_ENVS = {
    'gl': {'GST_GL_PLATFORM': 'egl', 'GST_GL_WINDOW': 'egl-device'},
    # GL asked of an X server that is not there: no GL at all
    'nogl': {'GST_GL_PLATFORM': 'glx', 'GST_GL_WINDOW': 'x11',
             'DISPLAY': None, 'WAYLAND_DISPLAY': None},
}
# element type names (gst-launch-1.0 -v) -> what the table calls them
ELEMENTS = {'GstHapDec': 'hapdec', 'GstBcDec': 'bcdec',
            'GstGLBcUpload': 'glbcupload',
            'GstGLDownloadElement': 'gldownload', 'GstAvDec': 'avdec'}


class Results:
    def __init__(self):
        self.rows = []

    def add(self, part, case, check, ok, detail=''):
        self.rows.append((part, case, check, ok, detail))
        mark = 'ok  ' if ok else 'FAIL'
        print(f'{mark} {part} {case}: {check}'
              f'{": " + detail if detail else ""}', flush=True)
        return ok

    def table(self):
        """One line per check: the cases it ran on, how many failed, the
        worst difference seen (or the first failure)."""
        groups = {}
        for part, case, check, ok, detail in self.rows:
            groups.setdefault((part, check), []).append((case, ok, detail))
        lines = []
        for (part, check), runs in groups.items():
            bad = [r for r in runs if not r[1]]
            worst, via = {}, []
            for _, _, detail in runs:
                m = re.match(r'(\w+(?:\+\w+)+): ', detail)
                if m and m.group(1) not in via:
                    via.append(m.group(1))
                m = re.search(r'max diff ((?:[RGBA]\d+/?)+)', detail)
                for c, d in re.findall(r'([RGBA])(\d+)', m.group(1) if m
                                       else ''):
                    worst[c] = max(worst.get(c, 0), int(d))
            if bad:
                result = f'{len(bad)} FAIL'
                detail = f'{bad[0][0]}: {bad[0][2]}'
            else:
                result = 'ok'
                detail = runs[0][2] if len(runs) == 1 else ''
            if worst:
                detail = 'max diff ' + '/'.join(
                    f'{c}{worst[c]}' for c in 'RGBA' if c in worst) + (
                        f'; {detail}' if bad else '')
            if via:
                detail = 'via ' + ', '.join(via) + '; ' + detail
            if len(detail) > 150:
                detail = detail[:147] + '...'
            lines.append((part, check, str(len(runs)), result, detail))
        w = [max(len(l[i]) for l in lines + [('part', 'check', 'cases',
                                               'result', '')])
             for i in range(4)]
        print()
        for l in [('part', 'check', 'cases', 'result', 'detail')] + lines:
            print('  '.join(x.ljust(w[i]) for i, x in enumerate(l[:4])),
                  l[4])
        failed = sum(1 for r in self.rows if not r[3])
        print(f'\n{len(self.rows)} checks in {len(groups)} kinds, '
              f'{failed} failed (TOLERANCE {TOLERANCE} levels)')
        return failed


R = Results()
WORK = '.'


def run(cmd, env=None, timeout=TIMEOUT):
    """Runs cmd (a list); returns (status, stdout + stderr). A signal is
    a negative status, a timeout -1000."""
    full = dict(os.environ)
    for k, v in (env or {}).items():
        if v is None:
            full.pop(k, None)
        else:
            full[k] = v
    try:
        p = subprocess.run(cmd, env=full, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        return -1000, (e.output or b'').decode(errors='replace')
    return p.returncode, p.stdout.decode(errors='replace')


def status_text(rc):
    if rc == -1000:
        return 'timed out'
    if rc < 0:
        return f'killed by {signal.Signals(-rc).name}'
    return f'exit {rc}'


def tail(out, n=4):
    lines = [l for l in out.splitlines() if l.strip()]
    return ' | '.join(lines[-n:])


def first_error(out):
    """gst-launch-1.0's first ERROR line and its debug line, or the end."""
    lines = out.splitlines()
    for i, l in enumerate(lines):
        if l.startswith('ERROR: from element') or \
                l.startswith('WARNING: erroneous pipeline'):
            return ' | '.join(x.strip() for x in lines[i:i + 3]
                              if x.strip() and x != 'Additional debug info:')
    return tail(out)


def path(name):
    return os.path.join(WORK, name)


def read(name):
    with open(name, 'rb') as f:
        return f.read()


def elements(out):
    """The elements of ours (and GL's) a gst-launch-1.0 -v run used."""
    seen = set(re.findall(r'/(Gst\w+):\w+', out))
    return '+'.join(v for k, v in ELEMENTS.items() if k in seen) or '?'


# ---- raw frame comparison ----

def compare(a, b, w, h, channels, tolerance=TOLERANCE):
    """(ok, detail): a and b hold the same number of whole w x h RGBA
    frames, and each channel in `channels` (indices) differs by at most
    `tolerance`."""
    size = w * h * 4
    if len(a) % size or len(b) % size:
        return False, f'not whole frames ({len(a)}, {len(b)} bytes)'
    if len(a) != len(b):
        return False, f'{len(a) // size} frames vs {len(b) // size}'
    if not a:
        return False, 'no frames'
    if a == b:
        return True, f'{len(a) // size} frames, identical'
    worst = []
    for c in channels:
        d = max(map(abs, map(operator.sub, a[c::4], b[c::4])))
        worst.append(d)
    ok = max(worst) <= tolerance
    detail = f'{len(a) // size} frames, max diff ' + '/'.join(
        f'{"RGBA"[c]}{d}' for c, d in zip(channels, worst))
    if not ok:
        c = channels[worst.index(max(worst))]
        i = next(i for i in range(c, len(a), 4)
                 if abs(a[i] - b[i]) == max(worst))
        px = i // 4
        detail += (f' (first at frame {px // (w * h)}, x {px % w}, '
                   f'y {px // w % h}: {a[i]} vs {b[i]})')
    return ok, detail


def ffmpeg_rgba(mov, out):
    rc, log = run(['ffmpeg', '-nostdin', '-v', 'error', '-y', '-i', mov,
                   '-f', 'rawvideo', '-pix_fmt', 'rgba', out])
    return rc, log


def ffprobe(mov):
    rc, out = run(['ffprobe', '-v', 'error', '-show_streams', '-count_frames',
                   '-of', 'json', mov])
    if rc != 0:
        return None, tail(out)
    # ffprobe's messages go to stderr, merged here: the JSON is the object
    try:
        return json.loads(out[out.index('{'):out.rindex('}') + 1]
                          )['streams'][0], ''
    except (ValueError, KeyError, IndexError) as e:
        return None, f'{e}: {tail(out)}'


GST_DECODE = ['qtdemux', '!', 'hapdec', '!', 'bcdec', '!',
              'video/x-raw,format=RGBA']


def gst_decode(mov, out):
    return run(['gst-launch-1.0', '-q', 'filesrc', f'location={mov}', '!']
               + GST_DECODE + ['!', 'filesink', f'location={out}'])


# ---- QuickTime and Hap parsing (for the frame checks and the damage) ----

def atoms(buf, start, end):
    off = start
    while off + 8 <= end:
        size, kind = struct.unpack_from('>I4s', buf, off)
        hdr = 8
        if size == 1:
            size = struct.unpack_from('>Q', buf, off + 8)[0]
            hdr = 16
        elif size == 0:
            size = end - off
        if size < hdr:
            return
        yield kind.decode('latin-1'), off, off + hdr, min(off + size, end)
        off += size


def find_atom(buf, start, end, route):
    for kind, off, body, stop in atoms(buf, start, end):
        if kind == route[0]:
            if len(route) == 1:
                return off, body, stop
            return find_atom(buf, body, stop, route[1:])
    return None


def samples(buf):
    """[(offset, size, stsz entry offset)] of the first track's samples."""
    stbl = find_atom(buf, 0, len(buf),
                     ['moov', 'trak', 'mdia', 'minf', 'stbl'])
    if not stbl:
        raise ValueError('no moov/trak/mdia/minf/stbl')
    _, s, e = stbl
    _, b, _ = find_atom(buf, s, e, ['stsz'])
    fixed, count = struct.unpack_from('>II', buf, b + 4)
    sizes = [(fixed, None)] * count if fixed else [
        (struct.unpack_from('>I', buf, b + 12 + 4 * i)[0], b + 12 + 4 * i)
        for i in range(count)]
    co = find_atom(buf, s, e, ['stco'])
    if co:
        n = struct.unpack_from('>I', buf, co[1] + 4)[0]
        chunks = struct.unpack_from(f'>{n}I', buf, co[1] + 8)
    else:
        co = find_atom(buf, s, e, ['co64'])
        n = struct.unpack_from('>I', buf, co[1] + 4)[0]
        chunks = struct.unpack_from(f'>{n}Q', buf, co[1] + 8)
    _, b, _ = find_atom(buf, s, e, ['stsc'])
    n = struct.unpack_from('>I', buf, b + 4)[0]
    runs = [struct.unpack_from('>III', buf, b + 8 + 12 * i) for i in range(n)]
    out, k = [], 0
    for ci, off in enumerate(chunks, 1):
        per = [r[1] for r in runs if r[0] <= ci][-1]
        for _ in range(per):
            if k < len(sizes):
                out.append((off, sizes[k][0], sizes[k][1]))
                off += sizes[k][0]
                k += 1
    return out


def section(buf, off):
    """(type, body offset, body size) of the Hap section at off."""
    size = buf[off] | buf[off + 1] << 8 | buf[off + 2] << 16
    if size == 0:
        return buf[off + 3], off + 8, struct.unpack_from('<I', buf, off + 4)[0]
    return buf[off + 3], off + 4, size


def hap_frame(frame):
    """(texture format nibble, [chunk compressors: 0xA none, 0xB Snappy],
    [chunk sizes])."""
    kind, body, size = section(frame, 0)
    if body + size != len(frame):
        raise ValueError(f'section of {size} bytes in a frame of {len(frame)}')
    if kind >> 4 in (0xA, 0xB):
        return kind & 0xF, [kind >> 4], [size]
    if kind >> 4 != 0xC:
        raise ValueError(f'section type {kind:#x}')
    k, b, s = section(frame, body)
    if k != 0x01:
        raise ValueError(f'no decode instructions ({k:#x})')
    comp, sizes, off = [], [], b
    while off < b + s:
        k, sb, ss = section(frame, off)
        if k == 0x02:
            comp = list(frame[sb:sb + ss])
        elif k == 0x03:
            sizes = list(struct.unpack_from(f'<{ss // 4}I', frame, sb))
        off = sb + ss
    return kind & 0xF, comp, sizes


# ---- A. playback of ffmpeg-made files ----

def source():
    """PFRAMES of testsrc2 in RGBA with an alpha ramp that moves (every
    alpha value), made once."""
    src = path('source.rgba')
    if os.path.exists(src):
        return src
    rc, out = run(['ffmpeg', '-nostdin', '-v', 'error', '-y', '-f', 'lavfi',
                   '-i', f'testsrc2=size={PW}x{PH}:rate={FPS},format=rgba,'
                   "geq=r='r(X,Y)':g='g(X,Y)':b='b(X,Y)':"
                   "a='mod(X+2*Y+8*N,256)'",
                   '-frames:v', str(PFRAMES), '-f', 'rawvideo', src + '.part'])
    if not R.add('A', 'source', 'ffmpeg testsrc2', rc == 0, tail(out)):
        return None
    os.rename(src + '.part', src)
    return src


def part_a():
    src = source()
    if not src:
        return
    for fmt in ('hap', 'hap_alpha', 'hap_q'):
        channels = (0, 1, 2, 3) if fmt == 'hap_alpha' else (0, 1, 2)
        for comp, chunks in (('snappy', 1), ('snappy', 4), ('none', 1)):
            case = f'{fmt}/{comp}/{chunks}'
            mov = path(f'a-{fmt}-{comp}-{chunks}.mov')
            rc, out = run(['ffmpeg', '-nostdin', '-v', 'error', '-y',
                           '-f', 'rawvideo', '-pix_fmt', 'rgba',
                           '-s', f'{PW}x{PH}', '-r', str(FPS), '-i', src,
                           '-c:v', 'hap', '-format', fmt, '-compressor', comp,
                           '-chunks', str(chunks), mov])
            if not R.add('A', case, 'ffmpeg -c:v hap', rc == 0, tail(out)):
                continue
            ref = path('a-ffmpeg.rgba')
            rc, out = ffmpeg_rgba(mov, ref)
            if not R.add('A', case, 'ffmpeg decodes', rc == 0 and not out,
                         tail(out)):
                continue
            ref = read(ref)
            play_a(case, mov, ref, channels)


def play_a(case, mov, ref, channels):
    got = path('a-gst.rgba')
    uri = 'file://' + os.path.abspath(mov)
    runs = [('(i) qtdemux!hapdec!bcdec', None,
             ['gst-launch-1.0', '-v', 'filesrc', f'location={mov}', '!']
             + GST_DECODE + ['!', 'filesink', f'location={got}'])]
    for name, env in GL_ENVS.items():
        runs.append((f'(ii) uridecodebin [{name}]', env,
                     ['gst-launch-1.0', '-v', 'uridecodebin', f'uri={uri}',
                      '!', 'videoconvert', '!', 'video/x-raw,format=RGBA',
                      '!', 'filesink', f'location={got}']))
        runs.append((f'(iii) playbin [{name}]', env,
                     ['gst-launch-1.0', '-v', 'playbin', f'uri={uri}',
                      'flags=video', 'video-sink="videoconvert ! '
                      f'video/x-raw,format=RGBA ! filesink location={got}"']))
        runs.append((f'(iv) uridecodebin3 [{name}]', env,
                     ['gst-launch-1.0', '-v', 'uridecodebin3', f'uri={uri}',
                      '!', 'videoconvert', '!', 'video/x-raw,format=RGBA',
                      '!', 'filesink', f'location={got}']))
        runs.append((f'(v) playbin3 [{name}]', env,
                     ['gst-launch-1.0', '-v', 'playbin3', f'uri={uri}',
                      'flags=video', 'video-sink="videoconvert ! '
                      f'video/x-raw,format=RGBA ! filesink location={got}"']))
    for check, env, cmd in runs:
        if check in HUNG:
            R.add('A', case, check, False,
                  'not run: it hung on ' + HUNG[check])
            continue
        if os.path.exists(got):
            os.unlink(got)
        rc, out = run(cmd, env, timeout=PLAY_TIMEOUT)
        if rc == -1000:
            # a pipeline that hangs hangs on every file: once is enough
            HUNG[check] = case
            R.add('A', case, check, False,
                  f'hung (killed after {PLAY_TIMEOUT} s; the elements '
                  f'{elements(out)} were plugged): {tail(out, 2)}')
            continue
        if rc != 0:
            why = first_error(out)
            if 'playbin' in check:
                # playbin says why it left a decoder out at debug level
                _, dbg = run(cmd, dict(env or {}, GST_DEBUG='playbin:5',
                                       GST_DEBUG_NO_COLOR='1'),
                             timeout=PLAY_TIMEOUT)
                m = re.search(r'autoplug_select_cb:<\w+> (\w+ not compatible '
                              r'with the fixed sink)', dbg)
                if m:
                    why = (f'playbin: "{m.group(1)}" (playbin leaves out a '
                           'decoder whose source caps its video-sink cannot '
                           'take) | ' + why)
            R.add('A', case, check, False, f'{status_text(rc)}: {why}')
            continue
        via = elements(out)
        tol = (GPU_YCOCG_TOLERANCE if 'glbcupload' in via and 'hap_q' in case
               else TOLERANCE)
        ok, detail = compare(ref, read(got), PW, PH, channels, tol)
        R.add('A', case, check, ok, f'{via}: {detail}'
              + (f' (tolerance {tol}: GPU, YCoCg)' if tol != TOLERANCE
                 else ''))


# ---- B. recording with examples/record-hap.sh ----

# FORMAT -> (ffprobe tag, Hap texture format nibble, encoder, bytes per
# block, channels compared)
RECORD = {
    'bc1': ('Hap1', 0xB, 'bc1enc', 8, (0, 1, 2)),
    'bc3': ('Hap5', 0xE, 'bc3enc ycocg=false', 16, (0, 1, 2, 3)),
    'ycocg': ('HapY', 0xF, 'bc3enc ycocg=true', 16, (0, 1, 2)),
    'bc4': ('HapA', 0x1, 'bc4enc', 8, (0, 1, 2)),
    'bc7': ('Hap7', 0xC, 'bc7enc', 16, (0, 1, 2, 3)),
    'bc6h': ('HapH', 0x2, 'bc6henc', 16, (0, 1, 2)),
}
# the raw video record-hap.sh gives each encoder
RECORD_RAW = {'bc6h': 'format=RGBA64_LE,colorimetry=bt2100-pq'}
# what ffmpeg 5.1 has no decoder for (ffprobe: no codec_name)
NO_FFMPEG = ('bc7', 'bc6h')


def part_b(examples):
    script = os.path.join(examples, 'record-hap.sh')
    for fmt, (tag, nibble, enc, bpb, channels) in RECORD.items():
        # a ball on a transparent background where the alpha is kept
        bg = '0x00000000' if fmt in ('bc3', 'bc7') else '0xff000000'
        # the encoder's own output decoded by bcdec: what Hap must give back
        ref = path(f'b-{fmt}-direct.rgba')
        rc, out = run(['gst-launch-1.0', '-q', 'videotestsrc',
                       f'num-buffers={RFRAMES}', 'pattern=ball',
                       f'background-color={bg}', '!',
                       f'video/x-raw,{RECORD_RAW.get(fmt, "format=RGBA")},'
                       f'width={RW},height={RH},framerate={FPS}/1', '!']
                      + enc.split()
                      + ['quality=normal', '!', 'bcdec', '!',
                         'video/x-raw,format=RGBA', '!', 'filesink',
                         f'location={ref}'])
        if not R.add('B', fmt, 'encoder ! bcdec (the reference)', rc == 0,
                     first_error(out)):
            continue
        direct = read(ref)
        for comp, chunks in (('snappy', 1), ('snappy', 4), ('none', 1),
                             ('none', 4)):
            record_b(script, fmt, comp, chunks, bg, direct)


def record_b(script, fmt, comp, chunks, bg, direct):
    tag, nibble, enc, bpb, channels = RECORD[fmt]
    case = f'{fmt}/{comp}/{chunks}'
    mov = path(f'b-{fmt}-{comp}-{chunks}.mov')
    rc, out = run([script, mov, fmt, str(RFRAMES)],
                  {'WIDTH': str(RW), 'HEIGHT': str(RH), 'FPS': str(FPS),
                   'PATTERN': 'ball', 'BACKGROUND': bg, 'COMPRESSOR': comp,
                   'CHUNKS': str(chunks), 'QUALITY': 'normal'})
    if not R.add('B', case, 'record-hap.sh', rc == 0,
                 status_text(rc) + ('' if rc == 0 else ': ' + tail(out))):
        return

    s, err = ffprobe(mov)
    if not R.add('B', case, 'ffprobe', s is not None, err):
        return
    dur = float(s.get('duration', 'nan'))
    want_dur = RFRAMES / FPS
    # ffmpeg 5.1 has no decoder for Hap7, HapH: no codec_name, no frames read
    frames = (s.get('nb_frames') if fmt in NO_FFMPEG
              else s.get('nb_read_frames'))
    got = (s.get('codec_name'), s.get('codec_tag_string'), s.get('width'),
           s.get('height'), frames)
    want = (None if fmt in NO_FFMPEG else 'hap', tag, RW, RH, str(RFRAMES))
    R.add('B', case, 'ffprobe: codec, tag, size, frames, duration',
          got == want and abs(dur - want_dur) < 0.5 / FPS,
          f'{"/".join(map(str, got))} {dur:.3f} s' + (
              '' if got == want else f' (want {"/".join(map(str, want))})'))

    # the Hap frames themselves
    buf = read(mov)
    try:
        frames = [buf[o:o + n] for o, n, _ in samples(buf)]
        parsed = [hap_frame(f) for f in frames]
        blocks = ((RW + 3) // 4) * ((RH + 3) // 4) * bpb
        bad = []
        for i, (fnib, comps, sizes) in enumerate(parsed):
            if fnib != nibble:
                bad.append(f'frame {i}: texture format {fnib:#x}')
            if len(comps) != chunks or len(sizes) not in (0, chunks):
                bad.append(f'frame {i}: {len(comps)} chunks')
            if comp == 'none' and (set(comps) != {0xA}
                                   or sum(sizes) != blocks):
                bad.append(f'frame {i}: {comps} {sum(sizes)} bytes, '
                           f'not {blocks} stored')
            if comp == 'snappy' and 0xB not in comps:
                bad.append(f'frame {i}: no Snappy chunk ({comps})')
        R.add('B', case, 'Hap frames: format, compressor, chunks', not bad,
              '; '.join(bad[:3]) if bad else
              f'{len(frames)} frames, {len(parsed[0][1])} chunk(s), '
              f'a file of {len(buf)} bytes')
    except (ValueError, IndexError, struct.error, TypeError) as e:
        R.add('B', case, 'Hap frames: format, compressor, chunks', False,
              f'cannot parse: {e}')

    ours = path('b-gst.rgba')
    rc, out = gst_decode(mov, ours)
    if not R.add('B', case, 'hapdec ! bcdec', rc == 0,
                 '' if rc == 0 else f'{status_text(rc)}: {tail(out)}'):
        return
    ours = read(ours)
    R.add('B', case, 'hapdec ! bcdec == the encoder\'s blocks',
          ours == direct, 'byte-identical' if ours == direct else
          compare(direct, ours, RW, RH, channels)[1])

    theirs = path('b-ffmpeg.rgba')
    rc, out = ffmpeg_rgba(mov, theirs)
    if fmt in NO_FFMPEG:
        # the one thing expected to fail: ffmpeg 5.1 cannot decode Hap7, HapH
        R.add('B', case, f'ffmpeg cannot decode {tag} (5.1: no decoder)',
              rc != 0 and 'Decoder (codec none) not found' in out,
              f'{status_text(rc)}: {tail(out, 1)}')
        return
    if not R.add('B', case, 'ffmpeg decodes', rc == 0 and not out.strip(),
                 tail(out)):
        return
    ok, detail = compare(read(theirs), ours, RW, RH, channels)
    R.add('B', case, 'ffmpeg vs hapdec ! bcdec', ok, detail)


# ---- C. examples/record-tile-hap.sh against a sender ----

def listening(port):
    """Whether something listens on 127.0.0.1:port (from /proc/net/tcp,
    without connecting: a probe would be a failed handshake to tilesink)."""
    want = f'0100007F:{port:04X}'
    try:
        with open('/proc/net/tcp') as f:
            return any(l.split()[1] == want and l.split()[3] == '0A'
                       for l in f.readlines()[1:])
    except OSError:
        return False


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def part_c(examples):
    script = os.path.join(examples, 'record-tile-hap.sh')
    # 1. the sender's EOS ends the recording (SECONDS only a safety net);
    # 2. SECONDS ends it, the sender still sending
    for case, buffers, seconds in (('sender-eos', 90, 20),
                                   ('seconds=2', 600, 2)):
        port = free_port()
        log = open(path(f'c-sender-{case}.log'), 'wb')
        sender = subprocess.Popen(
            ['gst-launch-1.0', 'videotestsrc', 'is-live=true',
             f'num-buffers={buffers}', '!',
             'video/x-raw,width=320,height=240,framerate=30/1', '!',
             'bc1enc', '!', 'tilesink', 'host=127.0.0.1', f'port={port}'],
            stdout=log, stderr=subprocess.STDOUT)
        try:
            end = time.monotonic() + 20
            while not listening(port) and sender.poll() is None \
                    and time.monotonic() < end:
                time.sleep(0.05)
            if not R.add('C', case, 'tilesink listening', listening(port),
                         f'127.0.0.1:{port}'):
                continue
            mov = path(f'c-{case}.mov')
            t0 = time.monotonic()
            rc, out = run([script, '127.0.0.1', str(port), mov, str(seconds)])
            took = time.monotonic() - t0
            ok = rc == 0 and (took < seconds if case == 'sender-eos'
                              else seconds - 0.5 < took < seconds + 10)
            R.add('C', case, 'record-tile-hap.sh', ok,
                  f'{status_text(rc)} after {took:.1f} s' +
                  ('' if rc == 0 else ': ' + tail(out)))
            check_c(case, mov)
        finally:
            if sender.poll() is None:
                sender.send_signal(signal.SIGINT)
            try:
                src = sender.wait(timeout=20)
            except subprocess.TimeoutExpired:
                sender.kill()
                src = sender.wait()
            log.close()
            R.add('C', case, 'sender exits cleanly', src == 0,
                  status_text(src))


def check_c(case, mov):
    s, err = ffprobe(mov)
    if not R.add('C', case, 'ffprobe', s is not None, err):
        return
    got = (s.get('codec_name'), s.get('codec_tag_string'), s.get('width'),
           s.get('height'))
    n = int(s.get('nb_read_frames', 0))
    R.add('C', case, 'ffprobe: hap, Hap1, 320x240, frames > 0',
          got == ('hap', 'Hap1', 320, 240) and n > 0,
          f'{"/".join(map(str, got))}, {n} frames, '
          f'{float(s.get("duration", "nan")):.2f} s')
    rc, out = run(['ffmpeg', '-nostdin', '-v', 'error', '-i', mov,
                   '-f', 'null', '-'])
    R.add('C', case, 'ffmpeg decodes without error',
          rc == 0 and not out.strip(), tail(out))
    ours = path('c-gst.rgba')
    rc, out = gst_decode(mov, ours)
    frames = len(read(ours)) // (320 * 240 * 4) if rc == 0 else 0
    R.add('C', case, 'hapdec ! bcdec decodes every frame',
          rc == 0 and frames == n, f'{status_text(rc)}, {frames} frames')


# ---- D. damaged files ----

def part_d():
    src = source()
    if not src:
        return
    for fmt, comp, chunks in (('hap', 'snappy', 4), ('hap_q', 'none', 1)):
        base = path(f'd-{fmt}-{comp}.mov')
        # moov first (faststart): a file cut short keeps its index
        rc, out = run(['ffmpeg', '-nostdin', '-v', 'error', '-y',
                       '-f', 'rawvideo', '-pix_fmt', 'rgba',
                       '-s', f'{PW}x{PH}', '-r', str(FPS), '-i', src,
                       '-c:v', 'hap', '-format', fmt, '-compressor', comp,
                       '-chunks', str(chunks), '-movflags', '+faststart',
                       base])
        if not R.add('D', f'{fmt}/{comp}/{chunks}', 'ffmpeg -c:v hap',
                     rc == 0, tail(out)):
            continue
        damage(f'{fmt}/{comp}/{chunks}', read(base))


def damage(case, orig):
    frames = samples(orig)
    n = len(frames)
    # the frames damaged on purpose (fewer in a row than hapdec's
    # max-errors)
    broken = [2, 5, 6]
    rng = random.Random(20260)

    def variant(name, mutate, want_drops):
        buf = bytearray(orig)
        try:
            cut = mutate(buf)
        except (ValueError, IndexError, struct.error) as e:
            R.add('D', f'{case} {name}', 'damage the file', False, str(e))
            return
        if cut is not None:
            del buf[cut:]
        mov = path(f'd-{name}.mov')
        with open(mov, 'wb') as f:
            f.write(buf)
        out_raw = path('d-gst.rgba')
        rc, out = run(['gst-launch-1.0', 'filesrc', f'location={mov}', '!',
                       'qtdemux', '!', 'hapdec', '!', 'bcdec', '!',
                       'video/x-raw,format=RGBA', '!', 'filesink',
                       f'location={out_raw}'],
                      {'G_DEBUG': 'fatal-criticals'})
        got = len(read(out_raw)) // (PW * PH * 4) \
            if os.path.exists(out_raw) else 0
        warned = len(re.findall(r'WARNING: from element \S*GstHapDec', out))
        errored = 'ERROR: from element' in out
        detail = (f'{status_text(rc)}, {got}/{n} frames out, '
                  f'{warned} hapdec warnings'
                  + (', ' + re.search(r'ERROR: from element (\S*): (.*)',
                                     out).group(2) if errored else ''))
        ok = rc in (0, 1)
        if want_drops is not None:
            # known-broken frames: each dropped with a warning, the rest
            # decoded, no error
            ok = ok and rc == 0 and warned >= want_drops \
                and got == n - want_drops
        R.add('D', f'{case} {name}', 'no crash' + (
            f', {want_drops} dropped with warnings' if want_drops else ''),
              ok, detail)
        os.unlink(mov)

    def flip(buf):
        for off, size, _ in frames:
            for i in rng.sample(range(off, off + size), max(1, size // 100)):
                buf[i] ^= 0xFF

    def zero_headers(buf):
        for i in broken:
            off = frames[i][0]
            buf[off:off + 8] = bytes(8)

    def zero_middle(buf):
        for off, size, _ in frames[2:8]:
            buf[off + size // 3:off + 2 * size // 3] = bytes(
                2 * size // 3 - size // 3)

    def bad_sizes(buf):
        # sections that claim more than the frame has
        for i in broken:
            off, size, _ = frames[i]
            kind, body, _ = section(buf, off)
            if kind >> 4 == 0xC:
                # the chunk size table's first entry
                k, b, s = section(buf, body)
                o = b
                while o < b + s:
                    k, sb, ss = section(buf, o)
                    if k == 0x03:
                        struct.pack_into('<I', buf, sb, 0x7FFFFFF0)
                    o = sb + ss
            else:
                # the top section's size
                buf[off:off + 3] = b'\xff\xff\x7f'

    def short_frames(buf):
        # frames cut short in the file: their second half taken out, the
        # index (stsz, stco, the mdat size) made to match, so every other
        # frame stays where the index says
        stbl = find_atom(buf, 0, len(buf),
                         ['moov', 'trak', 'mdia', 'minf', 'stbl'])
        co = find_atom(buf, stbl[1], stbl[2], ['stco'])
        wide = co is None
        if wide:
            co = find_atom(buf, stbl[1], stbl[2], ['co64'])
        fmt, step = ('>Q', 8) if wide else ('>I', 4)
        count = struct.unpack_from('>I', buf, co[1] + 4)[0]
        mdat = find_atom(buf, 0, len(buf), ['mdat'])
        if mdat[0] < co[0]:
            raise ValueError('moov after mdat')
        for i in reversed(broken):
            off, size, entry = frames[i]
            cut = size // 2
            del buf[off + size - cut:off + size]
            struct.pack_into('>I', buf, entry, size - cut)
            for k in range(count):
                pos = co[1] + 8 + step * k
                if struct.unpack_from(fmt, buf, pos)[0] > off:
                    struct.pack_into(fmt, buf, pos,
                                     struct.unpack_from(fmt, buf, pos)[0]
                                     - cut)
            mdat_size = struct.unpack_from('>I', buf, mdat[0])[0]
            if mdat_size == 1:          # 64-bit size
                struct.pack_into('>Q', buf, mdat[0] + 8, struct.unpack_from(
                    '>Q', buf, mdat[0] + 8)[0] - cut)
            elif mdat_size > 1:         # (0: to the end of the file)
                struct.pack_into('>I', buf, mdat[0], mdat_size - cut)

    def cut_file(buf):
        # the file ends in the middle of frame n/2
        off, size, _ = frames[n // 2]
        return off + size // 2

    variant('flip', flip, None)
    variant('zero-headers', zero_headers, len(broken))
    variant('zero-middle', zero_middle, None)
    variant('bad-sizes', bad_sizes, len(broken))
    if frames[0][2] is not None:
        # (compressor none: every frame the same size, one stsz entry)
        variant('short-frames', short_frames, len(broken))
    variant('cut-file', cut_file, None)


def main():
    global WORK
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--examples', required=True,
                    help='the directory of record-hap.sh and '
                    'record-tile-hap.sh')
    ap.add_argument('--work', required=True, help='a scratch directory')
    ap.add_argument('--parts', default='ABCD')
    args = ap.parse_args()
    WORK = args.work
    os.makedirs(WORK, exist_ok=True)
    t0 = time.monotonic()
    if 'A' in args.parts:
        part_a()
    if 'B' in args.parts:
        part_b(args.examples)
    if 'C' in args.parts:
        part_c(args.examples)
    if 'D' in args.parts:
        part_d()
    failed = R.table()
    print(f'hap: {time.monotonic() - t0:.0f} s')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
