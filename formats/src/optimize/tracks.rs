//! Every track of a model, Warcraft III and alpha, with what its absence
//! means: [`visit_tracks`] hands each keyframe track to a [`TrackVisitor`]
//! with its rest value and whether the game steps it, and may remove it.

use crate::mdx::alpha::{self, CompressedQuaternion, FlipTrack, GenObjectTrack};
use crate::mdx::{
    AttachmentTrack, CameraTrack, Chunk, CornEmitterTrack, EventTrack, GeosetAnimationTrack,
    LayerTrack, LightTrack, Model, Node, NodeTrack, ParticleEmitter2Track, ParticleEmitterTrack,
    RibbonEmitterTrack, TextureAnimationTrack, Track,
};

use format_core::FourCC;

use super::value::Animated;

/// What [`visit_tracks`] calls for each track.
pub trait TrackVisitor {
    /// A keyframe track at `at` (`BONE.bones[3].node.KGTR`), `rest` the value
    /// its absence means (`None` when not known), `stepped` when the game
    /// steps it whatever its interpolation says (visibility). Returns
    /// whether to keep the track (`false` removes it).
    fn key_track<T: Animated>(
        &mut self,
        at: &str,
        track: &mut Track<T>,
        rest: Option<&T>,
        stepped: bool,
    ) -> bool;

    /// A track of another form (event frames, alpha flipbooks): only its
    /// global sequence id is seen.
    fn other_track(&mut self, at: &str, global_sequence_id: &mut i32);

    /// An event object's `KEVT` (frames without values): by default
    /// [`other_track`](Self::other_track) of its global sequence id; a
    /// visitor that moves keys in time moves these frames too.
    fn event_track(&mut self, at: &str, track: &mut EventTrack) {
        self.other_track(at, &mut track.global_sequence_id);
    }

    /// A track kept as bytes (a tag no definition knows): nothing in it can
    /// be seen, its global sequence id included.
    fn unknown_track(&mut self, at: &str);
}

/// The path of each track of one object: its tag, numbered from the second
/// track with the same tag on.
#[derive(Default)]
struct Tags(Vec<&'static str>);

impl Tags {
    fn path(&mut self, object: &str, tag: &'static str) -> String {
        let before = self.0.iter().filter(|t| **t == tag).count();
        self.0.push(tag);
        match before {
            0 => format!("{object}.{tag}"),
            n => format!("{object}.{tag}#{n}"),
        }
    }
}

/// Visits a list of tracks of one enum, removing those the visitor drops:
/// each variant's tag, its rest value (an `Option`) and whether it steps.
/// Variants named under `other` are tracks of another form (flipbooks).
macro_rules! visit_list {
    (
        $v:expr, $at:expr, $tracks:expr, $enum:ident {
            $( $variant:ident($tag:literal) => $rest:expr, $stepped:expr; )*
        } $( other { $( $other:ident($otag:literal) ),* } )?
    ) => {{
        let mut tags = Tags::default();
        $tracks.retain_mut(|track| match track {
            $( $enum::$variant(t) => {
                let rest = $rest;
                $v.key_track(&tags.path($at, $tag), t, rest.as_ref(), $stepped)
            } )*
            $( $( $enum::$other(t) => {
                flip(&mut *$v, &tags.path($at, $otag), t);
                true
            } )* )?
            $enum::Unknown(_) => {
                $v.unknown_track(&format!("{}.unknown", $at));
                true
            }
        });
    }};
}

/// No translation, no rotation, unit scale.
const NO_TRANSLATION: Option<[f32; 3]> = Some([0.0; 3]);
const NO_ROTATION: Option<[f32; 4]> = Some([0.0, 0.0, 0.0, 1.0]);
const UNIT_SCALE: Option<[f32; 3]> = Some([1.0; 3]);
/// Shown.
const VISIBLE: Option<f32> = Some(1.0);
/// Unknown.
const NONE_F32: Option<f32> = None;
const NONE_VEC3: Option<[f32; 3]> = None;

/// An alpha flipbook track: its global sequence id.
fn flip(v: &mut impl TrackVisitor, at: &str, track: &mut FlipTrack) {
    match track {
        FlipTrack::Simple(t) => v.other_track(at, &mut t.global_seq_id),
        FlipTrack::Key(t) => v.other_track(at, &mut t.global_sequence_id),
    }
}

fn node(v: &mut impl TrackVisitor, at: &str, node: &mut Node) {
    visit_list!(v, at, node.tracks, NodeTrack {
        Translation("KGTR") => NO_TRANSLATION, false;
        Rotation("KGRT") => NO_ROTATION, false;
        Scaling("KGSC") => UNIT_SCALE, false;
    });
}

/// The identity rotation of alpha tracks, packed (to 0: x, y, z of 0; w is
/// not stored).
fn packed_identity() -> Option<CompressedQuaternion> {
    Some(CompressedQuaternion::from_quaternion([0.0, 0.0, 0.0, 1.0]))
}

fn gen_object(v: &mut impl TrackVisitor, at: &str, object: &mut alpha::GenObject) {
    visit_list!(v, at, object.tracks, GenObjectTrack {
        Translation("KGTR") => NO_TRANSLATION, false;
        Rotation("KGRT") => packed_identity(), false;
        Scaling("KGSC") => UNIT_SCALE, false;
    });
}

/// Every track of `model`, in file order, handed to `visitor`; tracks it
/// declines are removed.
///
/// A track's rest value is the value its object has without it: nodes and
/// texture animations rest at no translation, no rotation, unit scale;
/// visibility tracks at 1 (shown); every other track at its object's static
/// field of the same name (a layer's `alpha`, a light's `intensity`, a
/// `PREM` emitter's `initial_velocity` for `KPES`, an alpha object's
/// `static_*`). Camera tracks have none known (the viewers disagree on what
/// a camera's translation track adds to its position), nor a layer texture
/// id that is negative.
///
/// ```
/// use formats::mdx::{Model, Track};
/// use formats::optimize::{Animated, TrackVisitor, visit_tracks};
///
/// /// Lists the tracks.
/// struct List(Vec<String>);
///
/// impl TrackVisitor for List {
///     fn key_track<T: Animated>(&mut self, at: &str, _: &mut Track<T>, _: Option<&T>, _: bool) -> bool {
///         self.0.push(at.to_string());
///         true
///     }
///     fn other_track(&mut self, _: &str, _: &mut i32) {}
///     fn unknown_track(&mut self, _: &str) {}
/// }
///
/// let mut model = Model::from_bytes(&formats::sample::sample_mdx())?;
/// let mut list = List(Vec::new());
/// visit_tracks(&mut model, &mut list);
/// assert_eq!(list.0, ["BONE.bones[0].node.KGTR"]);
/// # Ok::<(), formats::Error>(())
/// ```
pub fn visit_tracks(model: &mut Model, visitor: &mut impl TrackVisitor) {
    let v = visitor;
    let mut kinds: Vec<FourCC> = Vec::new();
    for chunk in &mut model.chunks {
        let tag = chunk.tag();
        // A second chunk of one kind (no known file has one) is told apart.
        let n = kinds.iter().filter(|k| **k == tag).count();
        kinds.push(tag);
        let c = if n == 0 {
            tag.to_string()
        } else {
            format!("{tag}#{n}")
        };
        match chunk {
            Chunk::Materials(chunk) => {
                for (m, material) in chunk.materials.iter_mut().enumerate() {
                    for (l, layer) in material.layers.iter_mut().enumerate() {
                        let at = format!("{c}.materials[{m}].layers[{l}]");
                        wc3_layer(v, &at, layer);
                    }
                }
            }
            Chunk::TextureAnimations(chunk) => {
                for (a, anim) in chunk.animations.iter_mut().enumerate() {
                    let at = format!("{c}.animations[{a}]");
                    visit_list!(v, &at, anim.tracks, TextureAnimationTrack {
                        Translation("KTAT") => NO_TRANSLATION, false;
                        Rotation("KTAR") => NO_ROTATION, false;
                        Scaling("KTAS") => UNIT_SCALE, false;
                    });
                }
            }
            Chunk::GeosetAnimations(chunk) => {
                for (a, anim) in chunk.animations.iter_mut().enumerate() {
                    let at = format!("{c}.animations[{a}]");
                    visit_list!(v, &at, anim.tracks, GeosetAnimationTrack {
                        Alpha("KGAO") => Some(anim.alpha), false;
                        Color("KGAC") => Some(anim.color), false;
                    });
                }
            }
            Chunk::Bones(chunk) => {
                for (i, bone) in chunk.bones.iter_mut().enumerate() {
                    node(v, &format!("{c}.bones[{i}].node"), &mut bone.node);
                }
            }
            Chunk::Lights(chunk) => {
                for (i, light) in chunk.lights.iter_mut().enumerate() {
                    let at = format!("{c}.lights[{i}]");
                    node(v, &format!("{at}.node"), &mut light.node);
                    for (list, at) in [
                        (&mut light.tracks, at.clone()),
                        (&mut light.tracks_after_chunk, format!("{at}.after_chunk")),
                    ] {
                        visit_list!(v, &at, list, LightTrack {
                            AttenuationStart("KLAS") => Some(light.attenuation_start), false;
                            AttenuationEnd("KLAE") => Some(light.attenuation_end), false;
                            Color("KLAC") => Some(light.color), false;
                            Intensity("KLAI") => Some(light.intensity), false;
                            AmbientIntensity("KLBI") => Some(light.ambient_intensity), false;
                            AmbientColor("KLBC") => Some(light.ambient_color), false;
                            Visibility("KLAV") => VISIBLE, true;
                        });
                    }
                }
            }
            Chunk::Helpers(chunk) => {
                for (i, helper) in chunk.helpers.iter_mut().enumerate() {
                    node(v, &format!("{c}.helpers[{i}].node"), &mut helper.node);
                }
            }
            Chunk::Attachments(chunk) => {
                for (i, attachment) in chunk.attachments.iter_mut().enumerate() {
                    let at = format!("{c}.attachments[{i}]");
                    node(v, &format!("{at}.node"), &mut attachment.node);
                    visit_list!(v, &at, attachment.tracks, AttachmentTrack {
                        Visibility("KATV") => VISIBLE, true;
                    });
                }
            }
            Chunk::ParticleEmitters(chunk) => {
                for (i, e) in chunk.emitters.iter_mut().enumerate() {
                    let at = format!("{c}.emitters[{i}]");
                    node(v, &format!("{at}.node"), &mut e.node);
                    visit_list!(v, &at, e.tracks, ParticleEmitterTrack {
                        EmissionRate("KPEE") => Some(e.emission_rate), false;
                        Gravity("KPEG") => Some(e.gravity), false;
                        Longitude("KPLN") => Some(e.longitude), false;
                        Latitude("KPLT") => Some(e.latitude), false;
                        Lifespan("KPEL") => Some(e.lifespan), false;
                        Speed("KPES") => Some(e.initial_velocity), false;
                        Visibility("KPEV") => VISIBLE, true;
                    });
                }
            }
            Chunk::ParticleEmitters2(chunk) => {
                for (i, e) in chunk.emitters.iter_mut().enumerate() {
                    let at = format!("{c}.emitters[{i}]");
                    node(v, &format!("{at}.node"), &mut e.node);
                    visit_list!(v, &at, e.tracks, ParticleEmitter2Track {
                        Speed("KP2S") => Some(e.speed), false;
                        Variation("KP2R") => Some(e.variation), false;
                        Latitude("KP2L") => Some(e.latitude), false;
                        Gravity("KP2G") => Some(e.gravity), false;
                        EmissionRate("KP2E") => Some(e.emission_rate), false;
                        Length("KP2N") => Some(e.length), false;
                        Width("KP2W") => Some(e.width), false;
                        Visibility("KP2V") => VISIBLE, true;
                    });
                }
            }
            Chunk::RibbonEmitters(chunk) => {
                for (i, e) in chunk.emitters.iter_mut().enumerate() {
                    let at = format!("{c}.emitters[{i}]");
                    node(v, &format!("{at}.node"), &mut e.node);
                    visit_list!(v, &at, e.tracks, RibbonEmitterTrack {
                        HeightAbove("KRHA") => Some(e.height_above), false;
                        HeightBelow("KRHB") => Some(e.height_below), false;
                        Alpha("KRAL") => Some(e.alpha), false;
                        Color("KRCO") => Some(e.color), false;
                        TextureSlot("KRTX") => Some(e.texture_slot), false;
                        Visibility("KRVS") => VISIBLE, true;
                    });
                }
            }
            Chunk::CornEmitters(chunk) => {
                for (i, e) in chunk.emitters.iter_mut().enumerate() {
                    let at = format!("{c}.emitters[{i}]");
                    node(v, &format!("{at}.node"), &mut e.node);
                    visit_list!(v, &at, e.tracks, CornEmitterTrack {
                        Alpha("KPPA") => Some(e.alpha), false;
                        Color("KPPC") => Some(e.color), false;
                        EmissionRate("KPPE") => Some(e.emission_rate), false;
                        Lifespan("KPPL") => Some(e.life_span), false;
                        Speed("KPPS") => Some(e.speed), false;
                        Visibility("KPPV") => VISIBLE, true;
                    });
                }
            }
            Chunk::Cameras(chunk) => {
                for (i, camera) in chunk.cameras.iter_mut().enumerate() {
                    let at = format!("{c}.cameras[{i}]");
                    visit_list!(v, &at, camera.tracks, CameraTrack {
                        Translation("KCTR") => NONE_VEC3, false;
                        TargetTranslation("KTTR") => NONE_VEC3, false;
                        Rotation("KCRL") => NONE_F32, false;
                    });
                }
            }
            Chunk::EventObjects(chunk) => {
                for (i, event) in chunk.objects.iter_mut().enumerate() {
                    let at = format!("{c}.objects[{i}]");
                    node(v, &format!("{at}.node"), &mut event.node);
                    if let Some(track) = &mut event.track {
                        v.event_track(&format!("{at}.KEVT"), track);
                    }
                }
            }
            Chunk::CollisionShapes(chunk) => {
                for (i, shape) in chunk.shapes.iter_mut().enumerate() {
                    node(v, &format!("{c}.shapes[{i}].node"), &mut shape.node);
                }
            }
            other => alpha_chunk(v, &c, other),
        }
    }
}

/// A Warcraft III layer: its tracks, and from 1100 on its texture list's.
fn wc3_layer(v: &mut impl TrackVisitor, at: &str, layer: &mut crate::mdx::Layer) {
    let texture = u32::try_from(layer.texture_id).ok();
    let fresnel = layer.fresnel;
    visit_list!(v, at, layer.tracks, LayerTrack {
        TextureId("KMTF") => texture, false;
        Alpha("KMTA") => Some(layer.alpha), false;
        EmissiveGain("KMTE") => layer.emissive_gain, false;
        FresnelColor("KFC3") => fresnel.map(|f| f.color), false;
        FresnelAlpha("KFCA") => fresnel.map(|f| f.opacity), false;
        FresnelTeamColor("KFTC") => fresnel.map(|f| f.team_color), false;
    });
    for (e, entry) in layer.textures.iter_mut().flatten().enumerate() {
        let rest = u32::try_from(entry.texture_id).ok();
        let keep = match &mut entry.texture_id_track {
            Some(track) => {
                let at = format!("{at}.textures[{e}].KMTF");
                v.key_track(&at, track, rest.as_ref(), false)
            }
            None => true,
        };
        if !keep {
            entry.texture_id_track = None;
        }
    }
}

/// The chunks of alpha models (1300 to 1500).
fn alpha_chunk(v: &mut impl TrackVisitor, c: &str, chunk: &mut Chunk) {
    use alpha::{
        CameraTrack, GeosetAnimTrack, LightTrack, ParticleEmitter2Track, ParticleEmitterTrack,
        RibbonEmitterTrack, TexAnimTrack, TexLayerTrack, VisibilityTrack,
    };
    match chunk {
        Chunk::AlphaMaterials(chunk) => {
            for (m, material) in chunk.materials.iter_mut().enumerate() {
                for (l, layer) in material.tex_layers.iter_mut().enumerate() {
                    let at = format!("{c}.materials[{m}].tex_layers[{l}]");
                    visit_list!(v, &at, layer.tracks, TexLayerTrack {
                        Alpha("KMTA") => Some(layer.static_alpha), false;
                    } other { Flip("KMTF") });
                }
            }
        }
        Chunk::AlphaTextureAnimations(chunk) => {
            for (a, anim) in chunk.texture_anims.iter_mut().enumerate() {
                let at = format!("{c}.texture_anims[{a}]");
                visit_list!(v, &at, anim.tracks, TexAnimTrack {
                    Translation("KTAT") => NO_TRANSLATION, false;
                    Rotation("KTAR") => packed_identity(), false;
                    Scaling("KTAS") => UNIT_SCALE, false;
                });
            }
        }
        Chunk::AlphaGeosetAnimations(chunk) => {
            for (a, anim) in chunk.geoset_anims.iter_mut().enumerate() {
                let at = format!("{c}.geoset_anims[{a}]");
                visit_list!(v, &at, anim.tracks, GeosetAnimTrack {
                    Alpha("KGAO") => Some(anim.static_alpha), false;
                    Color("KGAC") => Some(anim.static_color), false;
                });
            }
        }
        Chunk::AlphaBones(chunk) => {
            for (i, bone) in chunk.bones.iter_mut().enumerate() {
                gen_object(v, &format!("{c}.bones[{i}].object"), &mut bone.object);
            }
        }
        Chunk::AlphaHelpers(chunk) => {
            for (i, helper) in chunk.helpers.iter_mut().enumerate() {
                gen_object(v, &format!("{c}.helpers[{i}]"), helper);
            }
        }
        Chunk::AlphaLights(chunk) => {
            for (i, light) in chunk.lights.iter_mut().enumerate() {
                let at = format!("{c}.lights[{i}]");
                gen_object(v, &format!("{at}.object"), &mut light.object);
                visit_list!(v, &at, light.tracks, LightTrack {
                    AttenuationStart("KLAS") => Some(light.static_atten_start), false;
                    AttenuationEnd("KLAE") => Some(light.static_atten_end), false;
                    Color("KLAC") => Some(light.static_color), false;
                    Intensity("KLAI") => Some(light.static_intensity), false;
                    AmbientColor("KLBC") => Some(light.static_amb_color), false;
                    AmbientIntensity("KLBI") => Some(light.static_amb_intensity), false;
                    Visibility("KVIS") => VISIBLE, true;
                });
            }
        }
        Chunk::AlphaAttachments(chunk) => {
            for (i, attachment) in chunk.attachments.iter_mut().enumerate() {
                let at = format!("{c}.attachments[{i}]");
                gen_object(v, &format!("{at}.object"), &mut attachment.object);
                visit_list!(v, &at, attachment.tracks, VisibilityTrack {
                    Visibility("KVIS") => VISIBLE, true;
                });
            }
        }
        Chunk::AlphaParticleEmitters(chunk) => {
            for (i, e) in chunk.emitters.iter_mut().enumerate() {
                let at = format!("{c}.emitters[{i}]");
                gen_object(v, &format!("{at}.object"), &mut e.object);
                visit_list!(v, &at, e.tracks, ParticleEmitterTrack {
                    EmissionRate("KPEE") => Some(e.static_emission_rate), false;
                    Gravity("KPEG") => Some(e.static_gravity), false;
                    Longitude("KPLN") => Some(e.static_longitude), false;
                    Latitude("KPLT") => Some(e.static_latitude), false;
                    Life("KPEL") => Some(e.static_life), false;
                    Speed("KPES") => Some(e.static_speed), false;
                    Visibility("KVIS") => VISIBLE, true;
                });
            }
        }
        Chunk::AlphaParticleEmitters2(chunk) => {
            for (i, e) in chunk.emitters.iter_mut().enumerate() {
                let at = format!("{c}.emitters[{i}]");
                gen_object(v, &format!("{at}.object"), &mut e.object);
                visit_list!(v, &at, e.tracks, ParticleEmitter2Track {
                    Visibility("KVIS") => VISIBLE, true;
                    Speed("KP2S") => Some(e.static_speed), false;
                    Variation("KP2R") => Some(e.static_variation), false;
                    Latitude("KP2L") => Some(e.static_latitude), false;
                    Longitude("KPLN") => Some(e.static_longitude), false;
                    Gravity("KP2G") => Some(e.static_gravity), false;
                    Life("KLIF") => Some(e.static_life), false;
                    EmissionRate("KP2E") => Some(e.static_emission_rate), false;
                    Width("KP2W") => Some(e.static_width), false;
                    Length("KP2N") => Some(e.static_length), false;
                    ZSource("KP2Z") => Some(e.static_zsource), false;
                });
            }
        }
        Chunk::AlphaRibbonEmitters(chunk) => {
            for (i, e) in chunk.emitters.iter_mut().enumerate() {
                let at = format!("{c}.emitters[{i}]");
                gen_object(v, &format!("{at}.object"), &mut e.object);
                visit_list!(v, &at, e.tracks, RibbonEmitterTrack {
                    HeightAbove("KRHA") => Some(e.static_height_above), false;
                    HeightBelow("KRHB") => Some(e.static_height_below), false;
                    Alpha("KRAL") => Some(e.static_alpha), false;
                    Color("KRCO") => Some(e.static_color), false;
                    Visibility("KVIS") => VISIBLE, true;
                } other { TextureSlot("KRTX") });
            }
        }
        Chunk::AlphaCameras(chunk) => {
            for (i, camera) in chunk.cameras.iter_mut().enumerate() {
                let at = format!("{c}.cameras[{i}]");
                visit_list!(v, &at, camera.tracks, CameraTrack {
                    Translation("KCTR") => NONE_VEC3, false;
                    Roll("KCRL") => NONE_F32, false;
                    Visibility("KVIS") => VISIBLE, true;
                    TargetTranslation("KTTR") => NONE_VEC3, false;
                });
            }
        }
        Chunk::AlphaEvents(chunk) => {
            for (i, event) in chunk.events.iter_mut().enumerate() {
                let at = format!("{c}.events[{i}]");
                gen_object(v, &format!("{at}.object"), &mut event.object);
                if let Some(keys) = &mut event.event_keys {
                    v.other_track(&format!("{at}.KEVT"), &mut keys.global_seq_id);
                }
            }
        }
        Chunk::AlphaHitTestShapes(chunk) => {
            for (i, shape) in chunk.hit_test_shapes.iter_mut().enumerate() {
                gen_object(
                    v,
                    &format!("{c}.hit_test_shapes[{i}].object"),
                    &mut shape.object,
                );
            }
        }
        _ => {}
    }
}
