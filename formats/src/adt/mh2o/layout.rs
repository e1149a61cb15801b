//! Reading MH2O by its offsets, and placing its elements on write (kept layout
//! or Blizzard's order).

use format_core::{Error, Reader, Result, Writer};

use super::{
    LiquidAttributes, LiquidChunk, LiquidInstance, LiquidVertexData, Mh2oLayout, SMLiquidInstance,
    UvMapEntry, read_instance_records,
};

/// Size of the `SMLiquidChunk chunks[16*16]` header.
const HEADER: usize = 256 * 12;

fn len32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// A sub-reader at `offset` from the start of the chunk data `r` is at.
fn at<'a>(r: &Reader<'a>, offset: u32) -> Result<Reader<'a>> {
    let mut sub = r.clone();
    sub.skip(offset as usize)?;
    Ok(sub)
}

/// The chunks and the layout they were read from.
fn parse(r: &Reader<'_>) -> Result<(Vec<LiquidChunk>, Mh2oLayout)> {
    let size = r.remaining();
    let header: Vec<[u32; 3]> = r.clone().plain_vec(256)?;
    let mut records = Vec::with_capacity(256);
    let mut starts = vec![0u32];
    for (c, &[offset_instances, layer_count, offset_attributes]) in header.iter().enumerate() {
        let recs = if layer_count > 0 {
            read_instance_records(r, offset_instances as usize, layer_count as usize)
                .map_err(|e| e.in_field("instances").at_index(c))?
        } else {
            Vec::new()
        };
        starts.extend([offset_instances, offset_attributes]);
        for rec in &recs {
            starts.extend([rec.offset_exists_bitmap, rec.offset_vertex_data]);
        }
        records.push((recs, offset_attributes));
    }
    starts.retain(|&s| s != 0);
    starts.sort_unstable();
    // Raw vertex data runs to the next element or the end of the chunk.
    let next_start = |offset: u32| {
        let i = starts.partition_point(|&s| s <= offset);
        starts.get(i).map_or(size, |&s| s as usize)
    };

    let mut chunks = Vec::with_capacity(256);
    let mut elements = Vec::new();
    let empty_chunk_offsets = (0u32..)
        .zip(&header)
        .filter(|(_, h)| h[1] == 0 && h[0] != 0)
        .map(|(c, h)| (c, h[0]))
        .collect();
    for (c, (recs, offset_attributes)) in records.into_iter().enumerate() {
        let in_chunk = |e: Error| e.at_index(c);
        if let Some(&[offset_instances, ..]) = header.get(c)
            && !recs.is_empty()
        {
            elements.push((offset_instances, len32(24 * recs.len())));
        }
        let attributes = if offset_attributes != 0 {
            elements.push((offset_attributes, 16));
            let mut sub = at(r, offset_attributes).map_err(in_chunk)?;
            Some(sub.plain::<LiquidAttributes>().map_err(in_chunk)?)
        } else {
            None
        };
        let mut instances = Vec::with_capacity(recs.len());
        for (k, rec) in recs.into_iter().enumerate() {
            let in_instance = |e: Error| in_chunk(e.at_index(k).in_field("instances"));
            let mut inst = LiquidInstance {
                liquid_type: rec.liquid_type,
                liquid_object_or_lvf: rec.liquid_object_or_lvf,
                min_height_level: rec.min_height_level,
                max_height_level: rec.max_height_level,
                x_offset: rec.x_offset,
                y_offset: rec.y_offset,
                width: rec.width,
                height: rec.height,
                exists_bitmap: None,
                vertex_data: None,
            };
            if rec.offset_exists_bitmap != 0 {
                let len = inst.bitmap_len();
                elements.push((rec.offset_exists_bitmap, len32(len)));
                let mut sub = at(r, rec.offset_exists_bitmap).map_err(in_instance)?;
                inst.exists_bitmap = Some(sub.bytes(len).map_err(in_instance)?.to_vec());
            }
            if rec.offset_vertex_data != 0 {
                let offset = rec.offset_vertex_data;
                let raw_len = next_start(offset).saturating_sub(offset as usize);
                let mut sub = at(r, offset).map_err(in_instance)?;
                let data = read_vertex_data(&mut sub, &inst, raw_len).map_err(in_instance)?;
                elements.push((offset, len32(inst.vertex_len(&data).map_err(in_instance)?)));
                inst.vertex_data = Some(data);
            }
            instances.push(inst);
        }
        chunks.push(LiquidChunk {
            instances,
            attributes,
        });
    }
    let gaps = gaps(r.rest(), &elements);
    let layout = Mh2oLayout {
        size: len32(size),
        elements,
        gaps,
        empty_chunk_offsets,
    };
    Ok((chunks, layout))
}

fn read_vertex_data(
    r: &mut Reader<'_>,
    inst: &LiquidInstance,
    raw_len: usize,
) -> Result<LiquidVertexData> {
    let n = inst.vertex_count();
    let heights = |r: &mut Reader<'_>| r.plain_vec::<f32>(n);
    let uvs = |r: &mut Reader<'_>| r.plain_vec::<UvMapEntry>(n);
    let depths = |r: &mut Reader<'_>| r.bytes(n).map(<[u8]>::to_vec);
    Ok(match inst.liquid_object_or_lvf {
        0 => LiquidVertexData::HeightDepth {
            heightmap: heights(r)?,
            depthmap: depths(r)?,
        },
        1 => LiquidVertexData::HeightUv {
            heightmap: heights(r)?,
            uvmap: uvs(r)?,
        },
        2 => LiquidVertexData::Depth {
            depthmap: depths(r)?,
        },
        3 => LiquidVertexData::HeightUvDepth {
            heightmap: heights(r)?,
            uvmap: uvs(r)?,
            depthmap: depths(r)?,
        },
        _ => LiquidVertexData::Raw(r.bytes(raw_len)?.to_vec()),
    })
}

/// The bytes of `body` outside the header and every element.
fn gaps(body: &[u8], elements: &[(u32, u32)]) -> Vec<(u32, Vec<u8>)> {
    let mut spans: Vec<(usize, usize)> = elements
        .iter()
        .map(|&(o, l)| (o as usize, o as usize + l as usize))
        .collect();
    spans.push((0, HEADER));
    spans.sort_unstable();
    let mut gaps = Vec::new();
    let mut covered = 0usize;
    for (start, end) in spans.into_iter().chain([(body.len(), body.len())]) {
        if start > covered
            && let Some(bytes) = body.get(covered..start)
        {
            gaps.push((len32(covered), bytes.to_vec()));
        }
        covered = covered.max(end);
    }
    gaps
}

/// Reads nothing: the layout of the chunk that follows (`None` if it does not
/// parse; reading the chunks then reports why).
pub(super) fn read_layout(r: &mut Reader<'_>) -> Result<Option<Mh2oLayout>> {
    Ok(parse(r).ok().map(|(_, layout)| layout))
}

/// Writes nothing (the layout is used by the chunks' writer).
pub(super) fn write_layout(_: &Option<Mh2oLayout>, _: &mut Writer) -> Result<()> {
    Ok(())
}

/// Reads the whole chunk.
pub(super) fn read_chunks(r: &mut Reader<'_>, _: &Option<Mh2oLayout>) -> Result<Vec<LiquidChunk>> {
    let (chunks, _) = parse(r)?;
    r.skip(r.remaining())?;
    Ok(chunks)
}

/// What kind of element, for placing and serialising.
#[derive(Debug, Clone, Copy)]
enum Elem {
    Instances(usize),
    Attributes(usize),
    Exists(usize, usize),
    Vertex(usize, usize),
}

/// Every element of `chunks` with its length, in [`Mh2oLayout::elements`] order.
fn elements(chunks: &[LiquidChunk]) -> Result<Vec<(Elem, usize)>> {
    let mut out = Vec::new();
    for (c, chunk) in chunks.iter().enumerate() {
        if !chunk.instances.is_empty() {
            out.push((Elem::Instances(c), 24 * chunk.instances.len()));
        }
        if chunk.attributes.is_some() {
            out.push((Elem::Attributes(c), 16));
        }
        for (k, inst) in chunk.instances.iter().enumerate() {
            if let Some(bits) = &inst.exists_bitmap {
                if bits.len() != inst.bitmap_len() {
                    return Err(Error::inconsistent(
                        0,
                        format!(
                            "chunk {c} instance {k}: exists bitmap of {} bytes, {}x{} tiles need {}",
                            bits.len(),
                            inst.width,
                            inst.height,
                            inst.bitmap_len()
                        ),
                    ));
                }
                out.push((Elem::Exists(c, k), bits.len()));
            }
            if let Some(data) = &inst.vertex_data {
                let len = inst
                    .vertex_len(data)
                    .map_err(|e| e.at_index(k).at_index(c))?;
                out.push((Elem::Vertex(c, k), len));
            }
        }
    }
    Ok(out)
}

/// Blizzard's order: header, every instance array, then per chunk its
/// attributes, bitmaps and vertex data.
fn canonical(elems: &[(Elem, usize)]) -> (Vec<usize>, usize) {
    let mut offsets = vec![0; elems.len()];
    let mut pos = HEADER;
    for first_pass in [true, false] {
        for ((elem, len), offset) in elems.iter().zip(&mut offsets) {
            if matches!(elem, Elem::Instances(_)) == first_pass {
                *offset = pos;
                pos += len;
            }
        }
    }
    (offsets, pos)
}

/// Writes the chunk, at the kept layout if every element still fits it.
pub(super) fn write_chunks(
    chunks: &[LiquidChunk],
    w: &mut Writer,
    layout: &Option<Mh2oLayout>,
) -> Result<()> {
    if chunks.len() != 256 {
        return Err(Error::inconsistent(
            w.pos(),
            format!("MH2O has {} chunks, the header needs 256", chunks.len()),
        ));
    }
    let elems = elements(chunks)?;
    // A kept layout is only reused as it was read: same element lengths, and a
    // size that ends where its last element or gap does.
    let covered = |layout: &Mh2oLayout| {
        let ends = layout
            .elements
            .iter()
            .map(|&(o, l)| o as usize + l as usize);
        let gaps = layout.gaps.iter().map(|(o, b)| *o as usize + b.len());
        ends.chain(gaps).chain([HEADER]).max() == Some(layout.size as usize)
    };
    if let Some(layout) = layout
        && covered(layout)
        && layout.elements.len() == elems.len()
        && layout
            .elements
            .iter()
            .zip(&elems)
            .all(|(&(_, kept), &(_, len))| kept as usize == len)
    {
        let offsets: Vec<usize> = layout.elements.iter().map(|&(o, _)| o as usize).collect();
        if let Some(buf) = place(chunks, &elems, &offsets, layout) {
            w.bytes(&buf);
            return Ok(());
        }
    }
    let (offsets, size) = canonical(&elems);
    let fresh = Mh2oLayout {
        size: len32(size),
        ..Mh2oLayout::default()
    };
    match place(chunks, &elems, &offsets, &fresh) {
        Some(buf) => {
            w.bytes(&buf);
            Ok(())
        }
        None => Err(Error::inconsistent(
            w.pos(),
            "MH2O elements do not fit their layout",
        )),
    }
}

/// Where each element went, by kind.
#[derive(Default)]
struct Placed {
    instances: Vec<u32>,
    attributes: Vec<u32>,
    exists: std::collections::HashMap<(usize, usize), u32>,
    vertex: std::collections::HashMap<(usize, usize), u32>,
}

impl Placed {
    fn new(chunks: usize, elems: &[(Elem, usize)], offsets: &[usize]) -> Placed {
        let mut placed = Placed {
            instances: vec![0; chunks],
            attributes: vec![0; chunks],
            ..Placed::default()
        };
        for ((elem, _), &offset) in elems.iter().zip(offsets) {
            let offset = len32(offset);
            match *elem {
                Elem::Instances(c) => placed.instances.get_mut(c).map(|o| *o = offset),
                Elem::Attributes(c) => placed.attributes.get_mut(c).map(|o| *o = offset),
                Elem::Exists(c, k) => placed.exists.insert((c, k), offset).map(|_| ()),
                Elem::Vertex(c, k) => placed.vertex.insert((c, k), offset).map(|_| ()),
            };
        }
        placed
    }
}

/// A buffer with every element at its offset; `None` if one falls outside or
/// two disagree where they overlap.
fn place(
    chunks: &[LiquidChunk],
    elems: &[(Elem, usize)],
    offsets: &[usize],
    layout: &Mh2oLayout,
) -> Option<Vec<u8>> {
    let size = layout.size as usize;
    let mut buf = vec![0u8; size];
    let mut used = vec![false; size];
    for (offset, bytes) in &layout.gaps {
        put(&mut buf, &mut used, *offset as usize, bytes)?;
    }
    let mut placed = Placed::new(chunks.len(), elems, offsets);
    for &(c, offset) in &layout.empty_chunk_offsets {
        let empty = chunks
            .get(c as usize)
            .is_some_and(|c| c.instances.is_empty());
        if let (true, Some(slot)) = (empty, placed.instances.get_mut(c as usize)) {
            *slot = offset;
        }
    }
    let mut header = Vec::with_capacity(HEADER);
    for (c, chunk) in chunks.iter().enumerate() {
        let instances = placed.instances.get(c).copied().unwrap_or_default();
        let attributes = placed.attributes.get(c).copied().unwrap_or_default();
        for v in [instances, len32(chunk.instances.len()), attributes] {
            header.extend_from_slice(&v.to_le_bytes());
        }
    }
    put(&mut buf, &mut used, 0, &header)?;
    for ((elem, _), &offset) in elems.iter().zip(offsets) {
        let bytes = serialize(chunks, *elem, &placed)?;
        put(&mut buf, &mut used, offset, &bytes)?;
    }
    Some(buf)
}

fn put(buf: &mut [u8], used: &mut [bool], offset: usize, bytes: &[u8]) -> Option<()> {
    let end = offset.checked_add(bytes.len())?;
    let target = buf.get_mut(offset..end)?;
    let marks = used.get_mut(offset..end)?;
    for ((t, m), &b) in target.iter_mut().zip(marks.iter_mut()).zip(bytes) {
        if *m && *t != b {
            return None;
        }
        *t = b;
        *m = true;
    }
    Some(())
}

fn put_floats(out: &mut Vec<u8>, values: &[f32]) {
    for v in values {
        out.extend_from_slice(&v.to_le_bytes());
    }
}

fn put_uvs(out: &mut Vec<u8>, values: &[UvMapEntry]) {
    for e in values {
        out.extend_from_slice(&e.x.to_le_bytes());
        out.extend_from_slice(&e.y.to_le_bytes());
    }
}

fn serialize(chunks: &[LiquidChunk], elem: Elem, placed: &Placed) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    match elem {
        Elem::Instances(c) => {
            for (k, inst) in chunks.get(c)?.instances.iter().enumerate() {
                let rec = SMLiquidInstance {
                    liquid_type: inst.liquid_type,
                    liquid_object_or_lvf: inst.liquid_object_or_lvf,
                    min_height_level: inst.min_height_level,
                    max_height_level: inst.max_height_level,
                    x_offset: inst.x_offset,
                    y_offset: inst.y_offset,
                    width: inst.width,
                    height: inst.height,
                    offset_exists_bitmap: placed.exists.get(&(c, k)).copied().unwrap_or(0),
                    offset_vertex_data: placed.vertex.get(&(c, k)).copied().unwrap_or(0),
                };
                let mut w = Writer::new();
                w.plain(&rec);
                out.extend_from_slice(w.as_bytes());
            }
        }
        Elem::Attributes(c) => {
            let a = chunks.get(c)?.attributes?;
            out.extend_from_slice(&a.fishable.to_le_bytes());
            out.extend_from_slice(&a.deep.to_le_bytes());
        }
        Elem::Exists(c, k) => {
            out.extend_from_slice(chunks.get(c)?.instances.get(k)?.exists_bitmap.as_ref()?);
        }
        Elem::Vertex(c, k) => match chunks.get(c)?.instances.get(k)?.vertex_data.as_ref()? {
            LiquidVertexData::HeightDepth {
                heightmap,
                depthmap,
            } => {
                put_floats(&mut out, heightmap);
                out.extend_from_slice(depthmap);
            }
            LiquidVertexData::HeightUv { heightmap, uvmap } => {
                put_floats(&mut out, heightmap);
                put_uvs(&mut out, uvmap);
            }
            LiquidVertexData::Depth { depthmap } => out.extend_from_slice(depthmap),
            LiquidVertexData::HeightUvDepth {
                heightmap,
                uvmap,
                depthmap,
            } => {
                put_floats(&mut out, heightmap);
                put_uvs(&mut out, uvmap);
                out.extend_from_slice(depthmap);
            }
            LiquidVertexData::Raw(bytes) => out.extend_from_slice(bytes),
        },
    }
    Some(out)
}
