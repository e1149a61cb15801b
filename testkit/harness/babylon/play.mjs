// Shared by probe.mjs and pose.mjs: the files of a probe list loaded one
// after the other by Babylon.js's own glTF loader, headless, and an
// animation group sent to probe times.
import * as fs from "fs";
import { NullEngine, Scene, LoadAssetContainerAsync, Logger } from "@babylonjs/core";
import "@babylonjs/loaders";

// Each file of the probe list (the JSON file the script's one argument
// names: [{"file", "probes": [[seconds...] per animation]}]) loaded into a
// fresh scene of one NullEngine, with the options `options(file)` gives
// LoadAssetContainerAsync, and its assets added to the scene: yields
// {file, probes, scene, container}, and disposes of the scene when asked
// for the next. Exits 2 if a file fails to load.
export async function* loadEach(options = () => ({ pluginExtension: ".glb" })) {
  Logger.LogLevels = Logger.ErrorLogLevel;
  const list = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
  const engine = new NullEngine();
  for (const { file, probes } of list) {
    const scene = new Scene(engine);
    let container;
    try {
      const data = new Uint8Array(fs.readFileSync(file));
      container = await LoadAssetContainerAsync(data, scene, options(file));
    } catch (e) {
      console.error(`${file}: ${e}`);
      process.exit(2);
    }
    container.addAllToScene();
    yield { file, probes, scene, container };
    scene.dispose();
  }
}

// A Babylon animation group (the one the glTF loader made for a glTF
// animation) sent to each probe time, in seconds, and what `read` gives
// there, one per probe. The group is stopped afterwards; what it animated
// stays where it last put it.
export function playAt(group, seconds, read) {
  // The loader's frames per second (60): glTF times are seconds.
  const fps = group.targetedAnimations[0]?.animation.framePerSecond ?? 60;
  group.start(false, 1.0, group.from, group.to);
  group.pause();
  const out = seconds.map((t) => {
    group.goToFrame(t * fps);
    return read();
  });
  group.stop();
  return out;
}
