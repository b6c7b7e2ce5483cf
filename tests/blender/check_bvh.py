# Blender's BVH importer reads what `scl run --bvh` writes (docs/clips.md, Into Blender):
# run by tests/blender/blender_bvh.sh as
#   blender -b --factory-startup --python-exit-code 1 --python tests/blender/check_bvh.py -- RUN.bvh RUN.csv
# It imports RUN.bvh as Blender's File > Import > Motion Capture (BVH) does, then checks
# against the run's trajectory CSV (written at the same rate): the frame count, the frame
# time, and at a few frames the knees', ankles' and elbows' angles (the signed angle in the
# character's plane between the bones on either side of the joint) and where the head's
# bone begins (the CSV's root_x, root_y). Any mismatch raises: blender exits 1.
import csv
import math
import sys

import bpy

bvh_path, csv_path = sys.argv[sys.argv.index("--") + 1:]
# Debian's Blender 3.4 runs its BVH importer on Python 3.11, which no longer has the 'U'
# of the importer's open(path, 'rU'): the importer's module gets an open() without it.
import io_anim_bvh.import_bvh as importer  # noqa: E402


def open_without_u(file, mode="r", *args, **kwargs):
    return open(file, mode.replace("U", ""), *args, **kwargs)


importer.open = open_without_u
bpy.ops.import_anim.bvh(filepath=bvh_path, update_scene_fps=True, update_scene_duration=True)
armature = next(o for o in bpy.data.objects if o.type == "ARMATURE")
scene = bpy.context.scene
with open(csv_path, newline="") as f:
    rows = list(csv.DictReader(f))

failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


frame_range = armature.animation_data.action.frame_range
frames = int(round(frame_range[1] - frame_range[0])) + 1
check(frames == len(rows), f"{frames} frames, the CSV has {len(rows)} rows")
keys = {len(curve.keyframe_points) for curve in armature.animation_data.action.fcurves}
check(keys == {len(rows)}, f"every curve has {sorted(keys)} keyframes")
frame_time = scene.render.fps_base / scene.render.fps
csv_step = float(rows[1]["time"]) - float(rows[0]["time"])
check(abs(frame_time - csv_step) < 1e-6, f"frame time {frame_time:.6f} s, CSV step {csv_step:.6f} s")


def direction(bone):
    # A pose bone's direction in the world, in the character's plane: Blender's x (forward)
    # and z (up), which the importer makes of BVH x and y.
    head = armature.matrix_world @ bone.head
    tail = armature.matrix_world @ bone.tail
    return tail.x - head.x, tail.z - head.z


def signed_angle(a, b):
    return math.degrees(math.atan2(a[0] * b[1] - a[1] * b[0], a[0] * b[0] + a[1] * b[1]))


joints = {  # joint: (the bone before it, the bone after it)
    "leftKnee": ("leftThigh", "leftShank"), "rightKnee": ("rightThigh", "rightShank"),
    "leftAnkle": ("leftShank", "leftFoot"), "rightElbow": ("rightArm", "rightForearm"),
}
worst = 0.0
for row_index in sorted({0, len(rows) // 3, 2 * len(rows) // 3, len(rows) - 1}):
    scene.frame_set(int(frame_range[0]) + row_index)
    row = rows[row_index]
    bones = armature.pose.bones
    for joint, (before, after) in joints.items():
        angle = signed_angle(direction(bones[before]), direction(bones[after]))
        error = (angle - float(row[joint + "_deg"]) + 180) % 360 - 180
        worst = max(worst, abs(error))
        check(abs(error) < 0.1, f"row {row_index}: {joint} {angle:.3f} deg, CSV {row[joint + '_deg']}")
    head = armature.matrix_world @ bones["head"].head
    check(math.hypot(head.x - float(row["root_x"]), head.z - float(row["root_y"])) < 0.001,
          f"row {row_index}: head at ({head.x:.4f}, {head.z:.4f}) m, CSV ({row['root_x']}, {row['root_y']})")
print(f"blender: {frames} frames of {frame_time:.6f} s, largest joint error {worst:.5f} deg")
if failures:
    raise SystemExit("blender check failed: " + "; ".join(failures))
