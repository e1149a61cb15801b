#!/usr/bin/env bash
# Blender's glTF importer against formats::anim: each model below is
# exported with `formats export`, imported into Blender, played at a time
# into a sequence, and its skinned vertices compared with the ones the
# library poses (examples/posed_vertices.rs). Fails if any vertex is further
# than 1e-4 of the model's size from where Blender shows it, or if the
# vertex counts differ. Then the rest pose (rest_check.py), the cameras
# (camera_check.py), that an export with every option that animates
# through KHR_animation_pointer imports whole (visibility_import.py), that
# Blender reads a texture animation's KHR_texture_transform
# (texture_transform_import.py), and that tiles land at their world
# coordinates, placements included (terrain_check.py).
#
# make_rigged.py is not run here: it built the committed fixture
# fixtures/rigged.glb once (fixtures/README.md), which the tests check.
#
# Not part of CI (Blender is 195 Debian packages); run it by hand:
#   apt-get install blender python3-numpy
#   bash testkit/harness/blender/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/../../.."
corpus="$root/../shared/corpus/mdx"
out="$(mktemp -d)"
cargo build --release -q -p formats-cli --bin formats --manifest-path "$root/Cargo.toml"
cargo build --release -q -p formats --features anim --example posed_vertices --manifest-path "$root/Cargo.toml"
bin="$root/target/release"
# model, sequence, ms[, export options]: classic matrix groups (800),
# Reforged SKIN (1000, 1100), hermite and bezier tracks with 17 global
# sequences (800), WoW alpha packed weights (1300). Between keys, linear
# rotations whose keys turn far apart (DruidBear: Blender interpolates
# quaternion components, which the export's added keys keep within 4e-6
# rad of slerp), and hermite and bezier translations exported with
# --resample-splines (Blender's importer drops CUBICSPLINE tangents: the
# horse's legs are 0.5 off at 300 ms without it).
cases=(
    "rms_PackHorse|Walk|500"
    "tm_TM_DruidBear|Attack 01|400"
    "tm_TM_DruidBear|Death|500"
    "tm_TM_DruidBear|Walk|300"
    "pqw3_HarvestGolem|Stand 2|1000"
    "amisd_456|attack|700"
    "wc3lib_Orc_Exp|Stand|1000"
    "wc3lib_Orc_Exp|Birth|2000"
    "wowalpha_Boar|Run|400"
    "tm_TM_DruidBear|Walk|250"
    "rms_PackHorse|Walk|300|--resample-splines"
    "rms_PackHorse|Walk|800|--resample-splines"
    "wc3lib_Orc_Exp|Stand|700|--resample-splines"
)
failed=0

# nearest SCRIPT GLB FORMAT ARGS...: runs SCRIPT (pose_check.py or
# rest_check.py: report_nearest in imported.py) in Blender on GLB and
# $out/posed.json, prints ARGS by FORMAT and then the vertex count, the
# largest distance, the model's size and their ratio; fails if Blender gave
# no result, shows another number of vertices, or a vertex is further than
# 1e-4 of the model's size.
nearest() {
    local script=$1 glb=$2 format=$3 line ours shown largest diagonal relative ok
    shift 3
    # shellcheck disable=SC2059 # the format is the caller's
    printf "$format" "$@"
    line=$(blender -b -P "$here/$script" -- "$glb" "$out/posed.json" 2>&1 | grep '^RESULT ' || true)
    if [ -z "$line" ]; then
        echo "Blender gave no result"
        return 1
    fi
    read -r ours shown largest diagonal < <(python3 -c '
import json, sys
r = json.loads(sys.argv[1][7:])
print(r["ours"], r["blender"], r["largest"], r["diagonal"])' "$line")
    relative=$(python3 -c "print(f'{$largest / max($diagonal, 1e-9):.1e}')")
    printf '%8s %12.6f %12.1f %10s\n' "$ours" "$largest" "$diagonal" "$relative"
    ok=$(python3 -c "print(int($ours == $shown and $largest <= 1e-4 * $diagonal))")
    if [ "$ok" != 1 ]; then
        echo "  ^ differs: $shown vertices in Blender"
        return 1
    fi
}
printf '%-20s %-12s %6s %8s %12s %12s %10s\n' model sequence ms vertices largest size relative
for case in "${cases[@]}"; do
    IFS='|' read -r model sequence ms flags <<<"$case"
    glb="$out/$model${flags//-/_}.glb"
    # shellcheck disable=SC2086 # flags: zero or more words
    [ -f "$glb" ] || "$bin/formats" export "$corpus/$model.mdx" "$glb" $flags >/dev/null 2>&1
    "$bin/examples/posed_vertices" "$corpus/$model.mdx" "$sequence" "$ms" >"$out/posed.json"
    nearest pose_check.py "$glb" "%-20s %-12s %6s " "$model" "$sequence" "$ms" || failed=1
done

# The rest pose (rest_check.py): what edit mode, a cleared pose and
# Blender's own exports show, which Blender builds from the skin's inverse
# bind matrices. Fails if a vertex is further than 1e-4 of the model's size
# from where the model stores it (Z up, standing), or the counts differ.
printf '\n%-20s %8s %12s %12s %10s\n' "model (rest)" vertices largest size relative
for model in rms_PackHorse tm_TM_DruidBear wowalpha_Boar pqw3_HarvestGolem wc3lib_Orc_Exp; do
    glb="$out/$model-rest.glb"
    "$bin/formats" export "$corpus/$model.mdx" "$glb" >/dev/null 2>&1
    first=$("$bin/formats" info "$corpus/$model.mdx" | awk '/^animations:/ { getline; sub(/^ +/, ""); sub(/ +-?[0-9]+ \.\..*/, ""); print; exit }')
    "$bin/examples/posed_vertices" "$corpus/$model.mdx" "$first" 0 >"$out/posed.json"
    nearest rest_check.py "$glb" "%-20s " "$model" || failed=1
done

# Cameras and lights: each model's cameras, as the file gives them
# (`formats dump --json`: eye, target, field of view), against where Blender
# puts the imported camera and where it looks; its lights against the type
# and colour Blender gives them. Exported without animations, so each camera
# is at rest (Orc_Exp's moves in its sequences). Fails if a camera is
# further than 1e-4 of its distance from the origin from its eye, looks more
# than 0.1 degrees off its target, leans (right-hand axis out of the
# horizontal: the model's +Z is up), or has another field of view; if a
# light has another type (omni: point, directional: a sun shining down,
# ambient: none) or colour.
printf '\n%-32s %-18s %10s %10s %10s %8s\n' model camera/light distance/type angle/colour lean/shines yfov
for model in pqw3_VillagerMaleRich_Portrait pqw3_girl2_portrait wc3lib_Orc_Exp risk_HumanBattleship_v800 amisd_nwdg32 wowalpha_Boar pqw3_candle zf_light; do
    glb="$out/$model-cameras.glb"
    "$bin/formats" export "$corpus/$model.mdx" "$glb" --no-animations >/dev/null 2>&1
    "$bin/formats" dump --json "$corpus/$model.mdx" 2>/dev/null | python3 -c '
import json, sys
found, lights = [], []
def walk(o):
    if isinstance(o, dict):
        if "light_type" in o:
            # A colour track wins over the static colour: its first key (the
            # tracks a writer put after the chunk count: amisd_nwdg32 has one).
            tracks = o["tracks"] + o.get("tracks_after_chunk", [])
            keys = [t["Color"]["keys"] for t in tracks if "Color" in t]
            color = keys[0][0]["value"] if keys and keys[0] else o["color"]
            lights.append({"name": o["node"]["name"], "type": o["light_type"], "color": color})
        if "field_of_view" in o:
            found.append({
                "name": o["name"],
                "position": o.get("position", o.get("pivot")),
                "target": o.get("target_position", o.get("target_pivot")),
                "field_of_view": o["field_of_view"],
            })
        for v in o.values():
            walk(v)
    elif isinstance(o, list):
        for v in o:
            walk(v)
walk(json.load(sys.stdin))
json.dump({"cameras": found, "lights": lights}, sys.stdout)' >"$out/cameras.json"
    blender -b -P "$here/camera_check.py" -- "$glb" "$out/cameras.json" 2>&1 | grep '^RESULT ' >"$out/result" || true
    if [ ! -s "$out/result" ]; then
        echo "$model: Blender gave no result"
        failed=1
        continue
    fi
    while read -r _ name distance angle lean yfov ok rest; do
        printf '%-32s %-18s %10s %10s %10s %8s %s %s\n' "$model" "$name" "$distance" "$angle" "$lean" "$yfov" "$ok" "$rest"
        [ "$ok" = ok ] || failed=1
    done <"$out/result"
done
# Every option that animates through KHR_animation_pointer
# (--geoset-visibility --material-colors --texture-animations
# --light-animations): Blender 3.4 knows neither KHR_node_visibility nor
# KHR_animation_pointer, and must still import the model whole (an object
# per geoset, an action per sequence), the channels it does not know
# skipped.
printf '\n%-32s %8s %8s\n' "model (every pointer option)" objects actions
for model in rms_PackHorse amisd_nwdg32 wc3lib_Orc_Exp; do
    glb="$out/$model-visibility.glb"
    line=$("$bin/formats" export "$corpus/$model.mdx" "$glb" --geoset-visibility --material-colors --texture-animations --light-animations 2>/dev/null)
    python3 -c '
import re, sys
m = re.search(r"(\d+) primitives?, .* (\d+) animations?", sys.argv[1])
print("{\"geosets\": %s, \"animations\": %s}" % m.groups())' "$line" >"$out/visibility.json"
    read -r _ objects actions ok < <(blender -b -P "$here/visibility_import.py" -- "$glb" "$out/visibility.json" 2>&1 | grep '^RESULT ' || echo "RESULT - - none")
    printf '%-32s %8s %8s %s\n' "$model" "$objects" "$actions" "$ok"
    [ "$ok" = ok ] || failed=1
done
# Texture animations (--texture-animations): Blender reads
# KHR_texture_transform (not its animation) as a Mapping node. The model's
# textures are not in the corpus: a corpus BLP stands in for each path its
# TEXS names, so that its materials have their textures.
printf '\n%-32s %8s\n' "model (--texture-animations)" moving
model=dbz_FountainOfSouls_rev-294411b2
textures="$out/textures"
"$bin/formats" dump --json "$corpus/$model.mdx" 2>/dev/null | python3 -c '
import json, os, shutil, sys
def walk(o):
    if isinstance(o, dict):
        if o.get("replaceable_id") == 0 and "file_name" in o:
            name = o["file_name"] if isinstance(o["file_name"], str) else bytes(o["file_name"]).decode("latin-1")
            path = os.path.join(sys.argv[1], name.rstrip("\0").replace("\\", "/"))
            os.makedirs(os.path.dirname(path), exist_ok=True)
            shutil.copy(sys.argv[2], path)
        for v in o.values():
            walk(v)
    elif isinstance(o, list):
        for v in o:
            walk(v)
walk(json.load(sys.stdin))' "$textures" "$corpus/../blp/ap_evilarchmage.blp"
glb="$out/$model-moving.glb"
"$bin/formats" export "$corpus/$model.mdx" "$glb" --texture-animations --textures "$textures" >/dev/null 2>&1
echo '{"moving": 1}' >"$out/moving.json"
read -r _ moving ok < <(blender -b -P "$here/texture_transform_import.py" -- "$glb" "$out/moving.json" 2>&1 | grep '^RESULT ' || echo "RESULT - none")
printf '%-32s %8s %s\n' "$model" "$moving" "$ok"
[ "$ok" = ok ] || failed=1
# Terrain: three corpus tiles exported (`formats export TILE.adt`) and
# imported; every vertex a triangle uses within 2e-3 yards of where
# formats::terrain puts it in world space (glTF holds f32: 1e-3 at 10 000
# yards), and each placement's empty at the placement's model-to-world
# matrix (examples/tile_world.rs), Blender being Z up as the map is.
cargo build --release -q -p formats --features terrain,gltf --example tile_world --manifest-path "$root/Cargo.toml"
printf '\n%-40s %8s %12s %10s %12s\n' tile vertices worst placements worst
adt="$corpus/../adt"
for tile in "$corpus/../maps/cataclysmctf/cataclysmctf_31_27.adt" "$adt/wowserfmt_continent4229.adt" "$adt/warcraftnet_Northrend_37_25.adt"; do
    name=$(basename "$tile" .adt)
    "$bin/formats" export "$tile" "$out/$name.glb" >/dev/null 2>&1
    "$bin/examples/tile_world" "$tile" >"$out/world.json"
    line=$(blender -b -P "$here/terrain_check.py" -- "$out/$name.glb" "$out/world.json" 2>&1 | grep '^RESULT ' || true)
    read -r vertices shown vertex_worst placements matrix_worst < <(python3 -c '
import json, sys
r = json.loads(sys.argv[1][7:] or "{}")
print(r.get("vertices"), r.get("shown"), r.get("vertex_worst"), r.get("placements"), r.get("matrix_worst"))' "${line:-RESULT }")
    printf '%-40s %8s %12s %10s %12s\n' "$name" "$vertices" "$vertex_worst" "$placements" "$matrix_worst"
    ok=$(python3 -c "print(int('$vertices' == '$shown' and float('$vertex_worst') <= 2e-3 and float('$matrix_worst') <= 2e-3))" 2>/dev/null || echo 0)
    if [ "$ok" != 1 ]; then
        echo "  ^ differs"
        failed=1
    fi
done
rm -rf "$out"
exit $failed
