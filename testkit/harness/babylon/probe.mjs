// Babylon.js's own glTF loader, headless (NullEngine), on exports written
// with the options that animate through KHR_animation_pointer: for each file
// of the probe list (a JSON file, the one argument: [{"file", "probes":
// [[seconds...] per animation]}]), prints one JSON line {"file", "nodes",
// "lights", "rest", "animations"}: the names of the meshes whose name holds
// " geoset " and of the lights, their states once loaded ("rest"), and for
// each animation, at each probe time, their states after Babylon's
// animation group went to that time; a state is {"meshes", "lights"}. A
// mesh's state is [visible (1 or 0), red, green, blue, alpha, then u, v of
// (0, 0), (1, 0) and (0, 1) through its base colour texture's transform];
// a light's is [intensity, red, green, blue]. Babylon maps
// KHR_node_visibility, KHR_texture_transform, KHR_lights_punctual and
// KHR_animation_pointer itself: nothing here reads the glTF. Exits 2 if a
// file fails to load. Run by the gltf_*.rs tests through common/babylon.rs.
import { loadEach, playAt } from "./play.mjs";

for await (const { file, probes, scene } of loadEach()) {
  const meshes = scene.meshes.filter((m) => m.name.includes(" geoset "));
  // Where the base colour texture's matrix takes (0, 0), (1, 0) and (0, 1):
  // Babylon's shaders multiply it by (u, v, 1, 0).
  const corners = (texture) => {
    if (!texture) return [0, 0, 1, 0, 0, 1];
    const m = texture.getTextureMatrix().m;
    const at = (u, v) => [u * m[0] + v * m[4] + m[8], u * m[1] + v * m[5] + m[9]];
    return [...at(0, 0), ...at(1, 0), ...at(0, 1)];
  };
  const lights = scene.lights;
  const states = () => ({
    meshes: meshes.map((m) => {
      const c = m.material?.albedoColor ?? { r: 1, g: 1, b: 1 };
      const uv = corners(m.material?.albedoTexture);
      return [m.isVisible ? 1 : 0, c.r, c.g, c.b, m.material?.alpha ?? 1, ...uv];
    }),
    lights: lights.map((l) => [l.intensity, l.diffuse.r, l.diffuse.g, l.diffuse.b]),
  });
  const rest = states();
  const groups = scene.animationGroups;
  groups.forEach((g) => g.stop());
  const animations = groups.map((group, k) => playAt(group, probes[k] || [], states));
  const names = { nodes: meshes.map((m) => m.name), lights: lights.map((l) => l.name) };
  console.log(JSON.stringify({ file, ...names, rest, animations }));
}
