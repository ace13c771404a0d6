#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Writes arm7_pick_place.csv: a pick-and-place cycle of the 7-joint arm (examples/arm7.urdf) as
joint histories sampled at 100 Hz, the way a trajectory planner or a controller log gives them.

Each move between two joint-space waypoints is a quintic rest-to-rest blend (zero velocity and
acceleration at both ends, docs/motion.md); the cycle is home, above the pick point, down,
grasp, up, across to the place point, down, release, up, home: 10 s in all.

    python3 examples/motions/make_arm7_pick_place.py > examples/motions/arm7_pick_place.csv
"""
import math
import sys

JOINTS = ["a1", "a2", "a3", "a4", "a5", "a6", "a7"]
# joint-space waypoints (rad)
HOME = [0.0, -0.3, 0.0, 1.2, 0.0, -0.6, 0.0]
ABOVE_PICK = [0.6, 0.35, 0.0, 1.35, 0.0, -0.45, 0.6]
AT_PICK = [0.6, 0.62, 0.0, 1.28, 0.0, -0.25, 0.6]
ABOVE_PLACE = [-0.8, 0.3, 0.1, 1.4, -0.1, -0.5, -0.8]
AT_PLACE = [-0.8, 0.58, 0.1, 1.32, -0.1, -0.3, -0.8]
# (start waypoint, end waypoint, duration in s); equal waypoints are a dwell
SEGMENTS = [
    (HOME, ABOVE_PICK, 2.0),
    (ABOVE_PICK, AT_PICK, 1.0),
    (AT_PICK, AT_PICK, 0.5),  # grasp
    (AT_PICK, ABOVE_PICK, 0.8),
    (ABOVE_PICK, ABOVE_PLACE, 2.2),
    (ABOVE_PLACE, AT_PLACE, 0.8),
    (AT_PLACE, AT_PLACE, 0.5),  # release
    (AT_PLACE, ABOVE_PLACE, 0.7),
    (ABOVE_PLACE, HOME, 1.5),
]
RATE = 100  # samples per second


def blend(s):
    """The quintic rest-to-rest profile on [0, 1]."""
    return s * s * s * (10.0 - 15.0 * s + 6.0 * s * s)


def main():
    out = sys.stdout
    out.write(",".join(["time"] + ["q:%s[0]" % j for j in JOINTS]) + "\n")
    total = sum(d for _, _, d in SEGMENTS)
    samples = int(round(total * RATE))
    for k in range(samples + 1):
        t = k / RATE
        start = 0.0
        for a, b, d in SEGMENTS:
            if t <= start + d + 1e-12 or (a, b, d) == SEGMENTS[-1]:
                s = min(max((t - start) / d, 0.0), 1.0)
                q = [qa + (qb - qa) * blend(s) for qa, qb in zip(a, b)]
                break
            start += d
        out.write(",".join(["%.6g" % t] + ["%.9g" % x for x in q]) + "\n")


if __name__ == "__main__":
    main()
