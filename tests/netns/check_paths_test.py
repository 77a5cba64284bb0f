#!/usr/bin/env python3
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# check.py's many-paths checks (issue 37; run.sh's paths-tcp, paths-udp,
# redundant-udp, redundant-udp-control, paths-down-tcp) on crafted JSON:
# each case must pass or fail as it says. No root, no network: the harness's
# own test, while those scenarios wait for the feature.
#
#   tests/netns/check_paths_test.py [-v]
#
# Standard library only. Exit 0 = every case as expected, 1 = not.

import json
import os
import subprocess
import sys
import tempfile

CHECK = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'check.py')
VERBOSE = '-v' in sys.argv[1:]


def write(name, tx, rx):
    with open(f'{name}.tx.json', 'w') as f:
        f.write(json.dumps(tx) + '\n')
    with open(f'{name}.rx.json', 'w') as f:
        f.write(json.dumps(rx) + '\n')


def base(frames, fps, proto, got=None, partial=0, gap=30.0, p50=20e6,
         last=None, incomplete=0, sent=None, steps=None):
    """The last JSON lines of tile-netns-check --send and --receive: a
    clean run of FRAMES at FPS, changed by the arguments"""
    got = frames if got is None else got
    sent = got if sent is None else sent
    tx = {'role': 'sender', 'protocol': proto, 'frame_size': 2073600,
          'frames_pushed': frames, 'fps': fps, 'push_seconds': frames / fps,
          'offered_bps': 829e6, 'eos': True, 'error': None,
          'stats': {'frames-sent': sent, 'frames-dropped': frames - sent,
                    'bytes-sent': sent * 2073600}}
    if steps:
        tx['steps'] = steps
    rx = {'role': 'receiver', 'protocol': proto, 'frame_size': 2073600,
          'frames': got, 'frames_partial': partial, 'lost_bytes': 0,
          'last_frame': frames - 1 if last is None else last,
          'max_interval_ms': gap, 'max_interval_frame': 10, 'eos': True,
          'error': None, 'receive_seconds': frames / fps,
          'stats': {'frames-received': got, 'latency-p50': p50,
                    'latency-p99': 2 * p50, 'frames-incomplete': incomplete}}
    return tx, rx


def run(label, name, tx, rx, proto, args, want):
    """check.py on TX and RX with ARGS (the --path-bytes* counts in units
    of 10 MB): does it pass (WANT True) or fail (False)?"""
    write(name, tx, rx)
    args = [','.join(str(int(v) * 10**7) for v in x.split(','))
            if i and args[i - 1].startswith('--path-bytes') else x
            for i, x in enumerate(args)]
    cmd = [sys.executable, CHECK, '--name', name, '--protocol', proto,
           '--tbf', '1', '--frames', str(tx['frames_pushed']),
           '--tx', f'{name}.tx.json', '--rx', f'{name}.rx.json',
           '--tx-rc', '0', '--rx-rc', '0'] + args
    r = subprocess.run(cmd, capture_output=True, text=True)
    ok = (r.returncode == 0) == want
    print(f'{"OK  " if ok else "BAD "} {label}: exit {r.returncode} '
          f'(want {"pass" if want else "fail"})')
    for l in r.stdout.splitlines():
        if VERBOSE or not ok or 'PROBLEM' in l or 'KNOWN' in l:
            print('      ' + l.strip())
    return ok


def cases():
    bal = ['--paths-balance', '0.3', '--max-gap', '500']

    def steps_down(f, fps):
        return [{'frame': f, 'seconds': f / fps + 0.001, 'took': 0.008,
                 'cmd': 'down'}]

    res = []
    # paths-tcp: balanced, good
    tx, rx = base(500, 50, 'tcp', got=490, sent=490, p50=18e6)
    res.append(run('balance good', 'bal-good', tx, rx, 'tcp',
                   bal + ['--path-bytes', '300,700'], True))
    # before balancing: 0.5/0.5, frames limited
    tx, rx = base(500, 50, 'tcp', got=300, sent=300, p50=55e6)
    res.append(run('0.5/0.5 unbalanced', 'bal-strict', tx, rx, 'tcp',
                   bal + ['--path-bytes', '500,500'], False))
    # share out of 0.15-0.45 only
    tx, rx = base(500, 50, 'tcp', got=490, sent=490, p50=18e6)
    res.append(run('share 0.5', 'bal-share', tx, rx, 'tcp',
                   bal + ['--path-bytes', '5,5'], False))
    # units not spread
    res.append(run('not spread (B 5 %)', 'bal-spread', tx, rx, 'tcp',
                   bal + ['--path-bytes', '95,5'], False))
    # stall
    tx, rx = base(500, 50, 'tcp', got=490, sent=490, gap=700.0)
    res.append(run('stall 700 ms', 'bal-stall', tx, rx, 'tcp',
                   bal + ['--path-bytes', '30,70'], False))
    # stopped for good
    tx, rx = base(500, 50, 'tcp', got=240, sent=240, last=239)
    res.append(run('stream stopped at 239', 'bal-stop', tx, rx, 'tcp',
                   bal + ['--path-bytes', '30,70'], False))
    # byte mismatch
    tx, rx = base(500, 50, 'tcp', got=490, sent=490)
    rx['mismatch_frames'] = 1
    res.append(run('a frame not byte-exact', 'bal-mismatch', tx, rx,
                   'tcp',
                   bal + ['--path-bytes', '30,70'], False))
    # UDP: whole frames count
    tx, rx = base(500, 50, 'udp', got=490, partial=80, p50=18e6)
    res.append(run('udp 82 % whole', 'bal-udp', tx, rx, 'udp',
                   bal + ['--path-bytes', '30,70'], False))

    red = ['--paths-redundant', '1', '--max-gap', '100', '--path-down', 'B']
    steps = steps_down(240, 30) + [{'frame': 420, 'seconds': 14.0,
                                    'took': 0.01, 'cmd': 'up'}]
    tx, rx = base(600, 30, 'udp', gap=45.0, steps=steps)
    good = ['--path-bytes', '400,280', '--path-bytes-before', '160,160',
            '--path-bytes-during', '120,0', '--path-bytes-after', '120,120']
    res.append(run('redundant good', 'red-good', tx, rx, 'udp', red + good,
                   True))
    # redundant-udp-control: path A down
    ctl = red[:-1] + ['A']
    res.append(run('redundant control path down, good', 'ctl-good', tx, rx,
                   'udp', ctl + ['--path-bytes', '280,400',
                                 '--path-bytes-before', '160,160',
                                 '--path-bytes-during', '0,120'], True))
    res.append(run('redundant control path down, A carried', 'ctl-leak', tx,
                   rx, 'udp', ctl + good, False))
    tx2, rx2 = base(600, 30, 'udp', gap=180.0, steps=steps)
    res.append(run('redundant gap 180 ms', 'red-gap', tx2, rx2, 'udp',
                   red + good, False))
    tx2, rx2 = base(600, 30, 'udp', got=590, partial=1, steps=steps)
    res.append(run('redundant 590/600, 1 partial', 'red-part', tx2, rx2, 'udp',
                   red + good, False))
    tx2, rx2 = base(600, 30, 'udp', incomplete=2, steps=steps)
    res.append(run('redundant 2 incomplete', 'red-inc', tx2, rx2, 'udp',
                   red + good, False))
    res.append(run('redundant, B unused before', 'red-spread', tx, rx, 'udp',
                   red + ['--path-bytes', '400,0', '--path-bytes-before',
                          '160,0', '--path-bytes-during', '120,0'], False))
    res.append(run('redundant, B carried while down', 'red-leak', tx, rx,
                   'udp', red + ['--path-bytes', '400,400',
                                 '--path-bytes-before', '160,160',
                                 '--path-bytes-during', '120,100000'], False))
    tx3, rx3 = base(600, 30, 'udp', got=0, last=0, steps=steps)
    res.append(run('no frame, stray bytes only', 'red-stray', tx3, rx3, 'udp',
                   red + ['--path-bytes', '0,0', '--path-bytes-before', '0,0',
                          '--path-bytes-during', '0,0'], False))
    res.append(run('redundant, no down counters', 'red-nobefore', tx, rx,
                   'udp', red + ['--path-bytes', '400,400'], False))
    tx2, rx2 = base(600, 30, 'udp', steps=[{'frame': 240, 'seconds': -1,
                                            'took': 0, 'cmd': 'down'}])
    res.append(run('redundant, step did not run', 'red-nostep', tx2, rx2,
                   'udp', red + good, False))
    tx2, rx2 = base(600, 30, 'udp', steps=[{'frame': 240, 'seconds': 9.0,
                                            'took': 0, 'cmd': 'down'}])
    res.append(run('redundant, step 1 s late', 'red-late', tx2, rx2, 'udp',
                   red + good, False))

    dn = ['--paths-down', '1', '--max-gap', '1000', '--path-down', 'B']
    dgood = ['--path-bytes', '300,70', '--path-bytes-before', '70,70',
             '--path-bytes-during', '230,0']
    tx, rx = base(450, 30, 'tcp', got=440, sent=445, gap=620.0,
                  steps=steps_down(150, 30))
    res.append(run('down: 5 lost, gap 620 ms', 'dn-good', tx, rx, 'tcp',
                   dn + dgood, True))
    tx, rx = base(450, 30, 'tcp', got=440, sent=445, gap=1400.0,
                  steps=steps_down(150, 30))
    res.append(run('down: gap 1.4 s', 'dn-gap', tx, rx, 'tcp', dn + dgood,
                   False))
    # (frames whose rows were on the failed path: dropped whole by the
    # receiver, never pushed)
    tx, rx = base(450, 30, 'tcp', got=440, sent=445, incomplete=3,
                  steps=steps_down(150, 30))
    res.append(run('down: 3 dropped incomplete', 'dn-inc', tx, rx, 'tcp',
                   dn + dgood, True))
    tx, rx = base(450, 30, 'tcp', got=420, sent=445,
                  steps=steps_down(150, 30))
    res.append(run('down: 93 % of the frames', 'dn-few', tx, rx, 'tcp',
                   dn + dgood, False))
    tx, rx = base(450, 30, 'tcp', got=440, sent=445,
                  steps=steps_down(150, 30))
    rx['stats']['connects'] = 2
    res.append(run('down: a reconnect', 'dn-reconnect', tx, rx, 'tcp',
                   dn + dgood, False))
    tx, rx = base(450, 30, 'tcp', got=440, sent=445,
                  steps=steps_down(150, 30))
    res.append(run('down and back: B carries again', 'dn-back', tx, rx,
                   'tcp', dn + dgood + ['--path-bytes-after', '50,40'],
                   True))
    res.append(run('down and back: B stays unused', 'dn-unused', tx, rx,
                   'tcp', dn + dgood + ['--path-bytes-after', '90,1'],
                   False))
    tx, rx = base(450, 30, 'tcp', got=440, sent=445, partial=1,
                  steps=steps_down(150, 30))
    res.append(run('down: 1 partial', 'dn-part', tx, rx, 'tcp', dn + dgood,
                   False))
    # over UDP (striped datagrams) 1 % of the frames may leave with gaps
    tx, rx = base(450, 30, 'udp', got=445, sent=445, partial=4,
                  steps=steps_down(150, 30))
    res.append(run('down, udp: 4 partial of 450', 'dn-udp-part', tx, rx,
                   'udp', dn + dgood, True))
    tx, rx = base(450, 30, 'udp', got=445, sent=445, partial=5,
                  steps=steps_down(150, 30))
    res.append(run('down, udp: 5 partial of 450', 'dn-udp-many', tx, rx,
                   'udp', dn + dgood, False))
    print(f'{sum(res)} of {len(res)} cases as expected')
    return 0 if all(res) else 1


def main():
    with tempfile.TemporaryDirectory(prefix='gstbc-paths-check.') as d:
        os.chdir(d)
        return cases()


if __name__ == '__main__':
    sys.exit(main())
