# SPDX-License-Identifier: BSD-3-Clause
"""The space robot's peak joint loads over a sweep of payload mass and shoulder drive speed.

The payload is the mass of the first arm's last link L16 (3 kg without payload); the drive speed
is the frequency of the shoulder drive J12's reference (0.1 Hz in the model). Every combination
of 6 masses and 5 frequencies is run for 5 s on every local core; the script prints the worst
case per joint and plots the peak moment of the shoulder J12 and of the wrist J16 against the
payload, one line per drive speed (matplotlib, if installed) into space_robot_payload.png.

    PYTHONPATH=build/release/python python3 examples/python/space_robot_payload.py [OUTPUT.png]
"""

import os
import sys

import kinetree

here = os.path.dirname(os.path.abspath(__file__))
robot = kinetree.load(os.path.join(here, "..", "space_robot.yaml"))
payloads = [3.0, 6.0, 10.0, 15.0, 20.0, 25.0]  # kg, mass of L16
speeds = [0.05, 0.1, 0.2, 0.3, 0.4]  # Hz, J12's reference
result = kinetree.sweep(
    robot,
    {"bodies[L16].inertial.mass": payloads, "bodies[L12].joint.drive.frequency": speeds},
    duration=5.0,
)
print(result.report(), end="")

output = sys.argv[1] if len(sys.argv) > 1 else "space_robot_payload.png"
try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("matplotlib is not installed (python3-matplotlib): no plot")
    sys.exit(0)

fig, axes = plt.subplots(1, 2, figsize=(10, 4.2), sharex=True)
for ax, joint, title in ((axes[0], "J12", "shoulder J12"), (axes[1], "J16", "wrist J16")):
    for speed in speeds:
        rows = [r for r in result.rows if r["bodies[L12].joint.drive.frequency"] == speed and r["status"] == "ok"]
        ax.plot(
            [r["bodies[L16].inertial.mass"] for r in rows],
            [r["peak_moment:" + joint] for r in rows],
            marker="o",
            label=f"{speed:g} Hz",
        )
    ax.set_title(f"Peak moment at the {title}")
    ax.set_xlabel("payload: mass of L16 (kg)")
    ax.set_ylabel("peak |M| (N m)")
    ax.grid(True, alpha=0.3)
axes[0].legend(title="J12 reference")
fig.suptitle("Space robot, 5 s: peak joint moments over payload and drive speed")
fig.tight_layout()
fig.savefig(output, dpi=120)
print(f"plot: {output}")
