//! Removing entries from an indexed list (textures, materials) when a
//! conversion stopped using them: which go, and where the others move.

/// The entries of a list that go, and the new index of every old one.
pub(super) struct Removal {
    gone: Vec<bool>,
    new_index: Vec<u32>,
}

impl Removal {
    /// The entries used `before` that are no longer used `now` (a shorter
    /// `now` counts as unused), or `None` when none goes.
    pub fn unused(before: &[bool], now: &[bool]) -> Option<Removal> {
        let gone: Vec<bool> = before
            .iter()
            .zip(now.iter().chain(core::iter::repeat(&false)))
            .map(|(was, is)| *was && !is)
            .collect();
        if !gone.contains(&true) {
            return None;
        }
        let mut new_index = Vec::with_capacity(gone.len());
        let mut next = 0u32;
        for &g in &gone {
            new_index.push(next);
            next += u32::from(!g);
        }
        Some(Removal { gone, new_index })
    }

    /// Whether entry `index` goes.
    pub fn goes(&self, index: usize) -> bool {
        self.gone.get(index) == Some(&true)
    }

    /// Moves an index to where its entry now is (indices past the list
    /// stay as they are).
    pub fn renumber(&self, id: &mut u32) {
        if let Some(&n) = self.new_index.get(*id as usize) {
            *id = n;
        }
    }

    /// Removes the entries that go from `list`, calling `gone(index,
    /// entry)` for each.
    pub fn apply<T>(&self, list: &mut Vec<T>, mut gone: impl FnMut(usize, &T)) {
        let mut index = 0;
        list.retain(|entry| {
            let keep = !self.goes(index);
            if !keep {
                gone(index, entry);
            }
            index += 1;
            keep
        });
    }
}
