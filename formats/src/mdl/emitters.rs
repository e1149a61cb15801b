//! The tracks of `ParticleEmitter`, `ParticleEmitter2`, `RibbonEmitter`
//! and the Reforged `ParticleEmitterPopcorn`, whose blocks are derived from
//! their definitions (`mdx::ParticleEmitter`, `mdx::ParticleEmitter2`,
//! `mdx::RibbonEmitter`, `mdx::CornEmitter`).

use super::tracks::mdl_tracks;
use crate::mdx::{
    CornEmitterTrack, ParticleEmitter2Track, ParticleEmitterTrack, RibbonEmitterTrack,
};

mdl_tracks!(ParticleEmitterTrack {
    EmissionRate => "EmissionRate",
    Gravity => "Gravity",
    Longitude => "Longitude",
    Latitude => "Latitude",
    Lifespan => "LifeSpan" | "Lifespan" within "Particle",
    Speed => "InitVelocity" | "InitialVelocity" | "Speed" within "Particle",
    Visibility => "Visibility",
});

mdl_tracks!(ParticleEmitter2Track {
    Speed => "Speed",
    Variation => "Variation",
    Latitude => "Latitude",
    Gravity => "Gravity",
    EmissionRate => "EmissionRate",
    Length => "Length",
    Width => "Width",
    Visibility => "Visibility",
});

mdl_tracks!(RibbonEmitterTrack {
    HeightAbove => "HeightAbove",
    HeightBelow => "HeightBelow",
    Alpha => "Alpha",
    Color => "Color" in rgb,
    TextureSlot => "TextureSlot",
    Visibility => "Visibility",
});

mdl_tracks!(CornEmitterTrack {
    Alpha => "Alpha",
    Color => "Color",
    EmissionRate => "EmissionRate",
    Lifespan => "LifeSpan" | "Lifespan",
    Speed => "Speed",
    Visibility => "Visibility",
});
