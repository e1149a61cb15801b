//! The DDS headers, field by field as Microsoft's documentation gives them
//! (`DDS_HEADER`, `DDS_PIXELFORMAT`, `DDS_HEADER_DXT10`), and
//! [`PixelFormat`]: what they say the surface bytes are.

use format_core::{Codec, Error};

/// `DDS_PIXELFORMAT` `dwFlags`.
pub mod pixel_flags {
    /// `DDPF_ALPHAPIXELS`: the bit masks include `dwABitMask`.
    pub const ALPHA_PIXELS: u32 = 0x1;
    /// `DDPF_ALPHA`: alpha only (older files).
    pub const ALPHA: u32 = 0x2;
    /// `DDPF_FOURCC`: compressed, `dwFourCC` says how.
    pub const FOURCC: u32 = 0x4;
    /// `DDPF_RGB`: uncompressed RGB, by the bit masks.
    pub const RGB: u32 = 0x40;
    /// `DDPF_LUMINANCE`: one channel (in `dwRBitMask`).
    pub const LUMINANCE: u32 = 0x2_0000;
}

/// `DDS_HEADER` `dwCaps2`.
pub mod caps2 {
    /// `DDSCAPS2_VOLUME`: a volume texture (each level's depth slices
    /// stored together).
    pub const VOLUME: u32 = 0x20_0000;
}

/// `DDS_HEADER_DXT10` `resourceDimension`.
pub mod resource_dimension {
    /// `D3D10_RESOURCE_DIMENSION_TEXTURE3D`: a volume texture.
    pub const TEXTURE3D: u32 = 4;
}

/// `DDS_PIXELFORMAT` (32 bytes).
///
/// ```text
/// struct DDS_PIXELFORMAT {
///   DWORD dwSize; DWORD dwFlags; DWORD dwFourCC; DWORD dwRGBBitCount;
///   DWORD dwRBitMask; DWORD dwGBitMask; DWORD dwBBitMask; DWORD dwABitMask;
/// };
/// ```
#[derive(Codec, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct DdsPixelFormat {
    /// Structure size; set to 32 (bytes).
    pub size: u32,
    /// Values which indicate what type of data is in the surface ([`pixel_flags`]).
    pub flags: u32,
    /// Four-character codes for specifying compressed or custom formats
    /// (`DXT1`, `DXT5`, `ATI2`, `DX10`, ...).
    pub four_cc: [u8; 4],
    /// Number of bits in an RGB (possibly including alpha) format.
    pub rgb_bit_count: u32,
    /// Red (or luminance) mask for reading color data.
    pub r_bit_mask: u32,
    /// Green mask for reading color data.
    pub g_bit_mask: u32,
    /// Blue mask for reading color data.
    pub b_bit_mask: u32,
    /// Alpha mask for reading alpha data.
    pub a_bit_mask: u32,
}

/// `DDS_HEADER` (124 bytes, after the `DDS ` magic).
///
/// ```text
/// struct DDS_HEADER {
///   DWORD dwSize; DWORD dwFlags; DWORD dwHeight; DWORD dwWidth;
///   DWORD dwPitchOrLinearSize; DWORD dwDepth; DWORD dwMipMapCount;
///   DWORD dwReserved1[11]; DDS_PIXELFORMAT ddspf;
///   DWORD dwCaps; DWORD dwCaps2; DWORD dwCaps3; DWORD dwCaps4; DWORD dwReserved2;
/// };
/// ```
#[derive(Codec, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct DdsHeader {
    /// Size of structure. This member must be set to 124.
    pub size: u32,
    /// Flags to indicate which members contain valid data.
    pub flags: u32,
    /// Surface height (in pixels).
    pub height: u32,
    /// Surface width (in pixels).
    pub width: u32,
    /// The pitch or number of bytes per scan line in an uncompressed
    /// texture; the total number of bytes in the top level texture for a
    /// compressed texture.
    pub pitch_or_linear_size: u32,
    /// Depth of a volume texture (in pixels), otherwise unused.
    pub depth: u32,
    /// Number of mipmap levels, otherwise unused.
    pub mip_map_count: u32,
    /// Unused.
    pub reserved1: [u32; 11],
    /// The pixel format.
    pub ddspf: DdsPixelFormat,
    /// Specifies the complexity of the surfaces stored.
    pub caps: u32,
    /// Additional detail about the surfaces stored (cubemap faces, volume:
    /// [`caps2`](mod@caps2)).
    pub caps2: u32,
    /// Unused.
    pub caps3: u32,
    /// Unused.
    pub caps4: u32,
    /// Unused.
    pub reserved2: u32,
}

/// `DDS_HEADER_DXT10` (20 bytes), present when `ddspf.dwFourCC` is `DX10`.
///
/// ```text
/// struct DDS_HEADER_DXT10 {
///   DXGI_FORMAT dxgiFormat; D3D10_RESOURCE_DIMENSION resourceDimension;
///   UINT miscFlag; UINT arraySize; UINT miscFlags2;
/// };
/// ```
#[derive(Codec, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct DdsHeaderDxt10 {
    /// The surface pixel format (a `DXGI_FORMAT` value).
    pub dxgi_format: u32,
    /// Identifies the type of resource (2: 1D, 3: 2D, 4: 3D:
    /// [`resource_dimension`](mod@resource_dimension)).
    pub resource_dimension: u32,
    /// Identifies other, less common options for resources (4: cube map).
    pub misc_flag: u32,
    /// The number of elements in the array.
    pub array_size: u32,
    /// Contains additional metadata (alpha mode).
    pub misc_flags2: u32,
}

/// What a DDS file's pixels are, from its headers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PixelFormat {
    /// BC1 (`DXT1`): 8-byte 4x4 blocks, colour and 1-bit alpha.
    Bc1,
    /// BC2 (`DXT2`, `DXT3`): 16-byte blocks, explicit 4-bit alpha.
    Bc2,
    /// BC3 (`DXT4`, `DXT5`): 16-byte blocks, interpolated alpha.
    Bc3,
    /// BC4 (`ATI1`, `BC4U`): one channel in 8-byte blocks; decoded as grey.
    Bc4,
    /// BC5 (`ATI2`, `BC5U`): two channels (red, green) in 16-byte blocks, as
    /// normal maps store X and Y; decoded with blue 0 and alpha 255, as a
    /// GPU samples them.
    Bc5,
    /// BC7 (`DXGI_FORMAT_BC7_*`): 16-byte blocks, 8 modes, RGBA.
    Bc7,
    /// Uncompressed pixels of `bits` bits (8, 16, 24 or 32), each channel
    /// where its mask says; `luminance`: one grey channel in `r`; `a` is 0
    /// for opaque pixels.
    Masked {
        /// Bits per pixel.
        bits: u32,
        /// Red (or luminance) mask.
        r: u32,
        /// Green mask.
        g: u32,
        /// Blue mask.
        b: u32,
        /// Alpha mask (0: opaque).
        a: u32,
        /// A luminance format: grey from `r`.
        luminance: bool,
    },
}

impl PixelFormat {
    /// The format `header` (and its `dx10` extension) says; an error names
    /// a format this crate does not decode.
    pub fn of(header: &DdsHeader, dx10: Option<&DdsHeaderDxt10>) -> Result<PixelFormat, Error> {
        let pf = &header.ddspf;
        // At the field that says it: `dxgiFormat`, `dwFourCC` or `dwFlags`
        // of the pixel format (file offsets, after the magic).
        let refuse = |at: usize, what: String| {
            Err(Error::invalid(
                at,
                format!("a DDS texture in {what}, which is not decoded here"),
            ))
        };
        if let Some(dx10) = dx10 {
            let masked = |r, g, b, a| PixelFormat::Masked {
                bits: 32,
                r,
                g,
                b,
                a,
                luminance: false,
            };
            return match dx10.dxgi_format {
                70..=72 => Ok(PixelFormat::Bc1),
                73..=75 => Ok(PixelFormat::Bc2),
                76..=78 => Ok(PixelFormat::Bc3),
                79 | 80 => Ok(PixelFormat::Bc4),
                82 | 83 => Ok(PixelFormat::Bc5),
                27..=29 => Ok(masked(0xff, 0xff00, 0xff_0000, 0xff00_0000)),
                87 | 90 | 91 => Ok(masked(0xff_0000, 0xff00, 0xff, 0xff00_0000)),
                88 | 92 | 93 => Ok(masked(0xff_0000, 0xff00, 0xff, 0)),
                81 | 84 => refuse(128, "signed BC4/BC5 (SNORM)".into()),
                94..=96 => refuse(128, "BC6H".into()),
                97..=99 => Ok(PixelFormat::Bc7),
                other => refuse(128, format!("DXGI format {other}")),
            };
        }
        if pf.flags & pixel_flags::FOURCC != 0 {
            return match &pf.four_cc {
                b"DXT1" => Ok(PixelFormat::Bc1),
                b"DXT2" | b"DXT3" => Ok(PixelFormat::Bc2),
                b"DXT4" | b"DXT5" => Ok(PixelFormat::Bc3),
                b"ATI1" | b"BC4U" => Ok(PixelFormat::Bc4),
                b"ATI2" | b"BC5U" => Ok(PixelFormat::Bc5),
                other => refuse(
                    84,
                    format!("the format {:?}", String::from_utf8_lossy(other)),
                ),
            };
        }
        let luminance = pf.flags & pixel_flags::LUMINANCE != 0;
        let alpha_only = pf.flags & pixel_flags::ALPHA != 0;
        if (pf.flags & pixel_flags::RGB != 0 || luminance || alpha_only)
            && matches!(pf.rgb_bit_count, 8 | 16 | 24 | 32)
        {
            let has_alpha = pf.flags & (pixel_flags::ALPHA_PIXELS | pixel_flags::ALPHA) != 0;
            return Ok(PixelFormat::Masked {
                bits: pf.rgb_bit_count,
                r: pf.r_bit_mask,
                g: pf.g_bit_mask,
                b: pf.b_bit_mask,
                a: if has_alpha { pf.a_bit_mask } else { 0 },
                luminance,
            });
        }
        refuse(
            80,
            format!(
                "pixel format flags {:#x} with {} bits",
                pf.flags, pf.rgb_bit_count
            ),
        )
    }

    /// The bytes of a `width` x `height` surface in this format.
    pub fn surface_len(self, width: u32, height: u32) -> u64 {
        let (w, h) = (u64::from(width), u64::from(height));
        let blocks = w.div_ceil(4) * h.div_ceil(4);
        match self {
            PixelFormat::Bc1 | PixelFormat::Bc4 => blocks * 8,
            PixelFormat::Bc2 | PixelFormat::Bc3 | PixelFormat::Bc5 | PixelFormat::Bc7 => {
                blocks * 16
            }
            PixelFormat::Masked { bits, .. } => w * h * u64::from(bits / 8),
        }
    }

    /// A short name (`BC1`, `BC5`, `32-bit masked`, ...).
    pub fn name(self) -> String {
        match self {
            PixelFormat::Bc1 => "BC1 (DXT1)".into(),
            PixelFormat::Bc2 => "BC2 (DXT3)".into(),
            PixelFormat::Bc3 => "BC3 (DXT5)".into(),
            PixelFormat::Bc4 => "BC4 (ATI1)".into(),
            PixelFormat::Bc5 => "BC5 (ATI2)".into(),
            PixelFormat::Bc7 => "BC7".into(),
            PixelFormat::Masked {
                bits,
                r,
                g,
                b,
                a,
                luminance,
            } => {
                let channels = match (luminance, r | g | b != 0, a != 0) {
                    (true, _, false) => "luminance",
                    (true, _, true) => "luminance and alpha",
                    (false, false, true) => "alpha",
                    (false, _, false) => "RGB",
                    (false, true, true) => "RGBA",
                };
                format!("uncompressed {bits}-bit {channels}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The name says whether the pixels have alpha: `info` shows it as the
    /// texture's format (an A8R8G8B8 texture was "32-bit RGB", an A8 one
    /// "8-bit RGB").
    #[test]
    fn masked_names_say_which_channels_there_are() {
        let masked = |bits, [r, g, b, a]: [u32; 4], luminance| PixelFormat::Masked {
            bits,
            r,
            g,
            b,
            a,
            luminance,
        };
        let rgb = [0xff_0000, 0xff00, 0xff, 0];
        let rgba = [0xff_0000, 0xff00, 0xff, 0xff00_0000];
        for (format, name) in [
            (masked(32, rgba, false), "uncompressed 32-bit RGBA"),
            (masked(32, rgb, false), "uncompressed 32-bit RGB"),
            (masked(24, rgb, false), "uncompressed 24-bit RGB"),
            (
                masked(8, [0, 0, 0, 0xff], false),
                "uncompressed 8-bit alpha",
            ),
            (
                masked(8, [0xff, 0, 0, 0], true),
                "uncompressed 8-bit luminance",
            ),
            (
                masked(16, [0xff, 0, 0, 0xff00], true),
                "uncompressed 16-bit luminance and alpha",
            ),
        ] {
            assert_eq!(format.name(), name);
        }
    }
}
