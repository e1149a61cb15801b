//! Why a level's bytes do not decode, or pixels do not encode.

use zune_jpeg::zune_core::colorspace::ColorSpace;

/// Why one level's bytes did not decode to pixels, or pixels did not encode
/// (the functions of [`codec`](super)).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CodecError {
    /// An uncompressed level is short of its pixels.
    #[error("{needed} bytes needed, {len} there")]
    BgraShort {
        /// `width * height * 4`.
        needed: usize,
        /// The level's bytes.
        len: usize,
    },
    /// A level of 4x4 blocks is short of its blocks.
    #[error("{needed} bytes needed ({blocks} blocks of {block} bytes), {len} there")]
    BlocksShort {
        /// `blocks * block`.
        needed: usize,
        /// The level's blocks.
        blocks: usize,
        /// Bytes a block.
        block: usize,
        /// The level's bytes.
        len: usize,
    },
    /// A palette level's alpha depth is not 0, 1, 4 or 8.
    #[error("a palette alpha depth of {bits} bits (0, 1, 4 or 8)")]
    AlphaDepth {
        /// The depth.
        bits: u32,
    },
    /// A palette level is short of its indices and alpha plane.
    #[error(
        "{needed} bytes needed ({pixels} indices and a {alpha_bits}-bit alpha plane), {len} there"
    )]
    PaletteShort {
        /// The indices and the alpha plane.
        needed: usize,
        /// The level's pixels.
        pixels: usize,
        /// The alpha depth.
        alpha_bits: u32,
        /// The level's bytes.
        len: usize,
    },
    /// The JPEG stream's first frame header is not one the decoder reads.
    #[error("{0}")]
    Frame(#[from] FrameError),
    /// The frame is larger than level 0.
    #[error("a {}x{} JPEG frame is larger than level 0 ({}x{})", frame.0, frame.1, level0.0, level0.1)]
    FrameLarger {
        /// The frame's width and height.
        frame: (u32, u32),
        /// Level 0's.
        level0: (u32, u32),
    },
    /// The frame is smaller than the level.
    #[error("a {}x{} JPEG frame is smaller than the level ({}x{})", frame.0, frame.1, level.0, level.1)]
    FrameSmaller {
        /// The frame's width and height.
        frame: (u32, u32),
        /// The level's.
        level: (u32, u32),
    },
    /// The stream is shorter than any coding of the frame's scans
    /// ([`Frame::least_scan_bytes`](super::jpeg::Frame::least_scan_bytes)).
    #[error(
        "a {}x{} JPEG frame of {components} components needs at least {least} bytes, the stream has {len}",
        frame.0, frame.1
    )]
    ScanShort {
        /// The frame's width and height.
        frame: (u32, u32),
        /// Its components.
        components: usize,
        /// The fewest bytes that code it.
        least: usize,
        /// The stream's bytes.
        len: usize,
    },
    /// The JPEG decoder refused the headers.
    #[error("JPEG headers: {0}")]
    Headers(#[source] zune_jpeg::errors::DecodeErrors),
    /// The JPEG decoder read no frame size.
    #[error("JPEG headers: no frame size")]
    NoFrameSize,
    /// The JPEG decoder read another frame than the first frame header.
    #[error(
        "JPEG headers: the decoder reads a {}x{} frame, the first SOF says {}x{}",
        decoder.0, decoder.1, frame.0, frame.1
    )]
    OtherFrame {
        /// The size the decoder read.
        decoder: (usize, usize),
        /// The first frame header's.
        frame: (u32, u32),
    },
    /// A JPEG of other components than BLP1's four (B, G, R, A).
    #[error("a JPEG of {colorspace:?} components, not the 4 (B, G, R, A) of BLP1")]
    Components {
        /// The components the decoder read.
        colorspace: Option<ColorSpace>,
    },
    /// The JPEG decoder refused the scans.
    #[error("JPEG data: {0}")]
    Data(#[source] zune_jpeg::errors::DecodeErrors),
    /// A side past what JPEG holds, to encode.
    #[error("JPEG sides are at most 65535, not {side}")]
    JpegSide {
        /// The side.
        side: u32,
    },
    /// The JPEG encoder failed.
    #[error("JPEG encoding: {0}")]
    Encoding(#[source] jpeg_encoder::EncodingError),
}

/// Why [`Frame::of`](super::jpeg::Frame::of) found no frame header it reads.
/// A "JPEG byte" counts from the start of the stream.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FrameError {
    /// The stream does not start with SOI.
    #[error("the JPEG stream does not start with SOI (FF D8)")]
    NoSoi,
    /// The stream ends before a frame header.
    #[error("the JPEG stream ends at byte {at} before a frame header")]
    End {
        /// Where.
        at: usize,
    },
    /// Another byte where a marker was expected.
    #[error("JPEG byte {at}: a marker was expected, not {byte:#04x}")]
    NotMarker {
        /// Where.
        at: usize,
        /// The byte.
        byte: u8,
    },
    /// The frame header is cut short by the stream's end.
    #[error("JPEG byte {at}: the frame header is cut short")]
    CutShort {
        /// Where the header's marker is.
        at: usize,
    },
    /// The frame header's fields.
    #[error("JPEG byte {at}: frame header: {source}")]
    Header {
        /// Where the header's marker is.
        at: usize,
        /// What about them.
        #[source]
        source: FrameHeaderError,
    },
    /// A lossless, hierarchical or arithmetic-coded frame.
    #[error(
        "JPEG byte {at}: frame type {marker:#04x} (lossless, hierarchical or arithmetic) is not supported"
    )]
    Unsupported {
        /// Where.
        at: usize,
        /// The SOF marker.
        marker: u8,
    },
    /// A scan before any frame header.
    #[error("JPEG byte {at}: a scan before any frame header")]
    ScanFirst {
        /// Where.
        at: usize,
    },
    /// EOI before any frame header.
    #[error("JPEG byte {at}: the stream ends (EOI) before a frame header")]
    EoiFirst {
        /// Where.
        at: usize,
    },
    /// A segment length below 2.
    #[error("JPEG byte {at}: a segment length of {length}")]
    SegmentLength {
        /// Where.
        at: usize,
        /// The length.
        length: usize,
    },
}

/// What about a frame header's fields the decoder does not read
/// ([`FrameError::Header`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FrameHeaderError {
    /// Fewer than the 6 bytes before the components.
    #[error("fewer than 6 bytes")]
    Short,
    /// Samples of other than 8 bits.
    #[error("{0}-bit samples, not 8")]
    Precision(u8),
    /// A side of 0.
    #[error("a {width}x{height} frame")]
    Empty {
        /// The width.
        width: u16,
        /// The height.
        height: u16,
    },
    /// Fewer component specifications than declared.
    #[error("{0} components declared, fewer there")]
    Components(u8),
    /// No component, or sampling factors outside 1 to 4.
    #[error("sampling factors {0:?} (each 1 to 4)")]
    Sampling(Vec<(u8, u8)>),
}
