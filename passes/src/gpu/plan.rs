//! How each linalg op maps onto the GPU, in plain Rust: tile sizes for the
//! block and thread levels, and for contractions the reduction tile staged
//! through shared memory. The plan is rendered as a transform-dialect
//! schedule that the upstream interpreter applies.

use std::fmt::Write;

/// One loop of a linalg op.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Loop {
    pub size: i64,
    pub reduction: bool,
}

/// The roles of a contraction's loops (MLIR's `inferContractionDims`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Contraction {
    pub batch: Vec<usize>,
    pub m: Vec<usize>,
    pub n: Vec<usize>,
    pub k: Vec<usize>,
    /// The rank of each input, whose shared-memory copies are distributed
    /// over the block's threads.
    pub input_ranks: [usize; 2],
    /// bf16 inputs summed into an f32 output: a product the tensor cores'
    /// `mma.sync` computes, where its loops fit their 16 x 8 x 16 tiles.
    pub tensor_cores: bool,
}

/// The tiling limits (pass options).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Block tile of a contraction's M, N and K loops (upper bounds: each
    /// becomes the largest divisor of the loop size not above it).
    pub matmul_tile: [i64; 3],
    /// The most threads in a block.
    pub max_threads: i64,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            matmul_tile: [64, 64, 16],
            max_threads: 256,
        }
    }
}

/// The most loops a block `scf.forall` may map to the grid.
/// `transform.gpu.map_forall_to_blocks` sizes the grid from the first three
/// linear dims only and drops a fourth without a diagnostic (MLIR 22): a
/// 4-D forall then runs part of its blocks and leaves the rest unwritten,
/// as the GPT block's attention did on an H200.
pub const MAX_BLOCK_DIMS: usize = 3;

/// How one op runs on the GPU.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// Tile sizes of a host `scf.for` around the launch (1 for each outer
    /// loop of a contraction beyond [`MAX_BLOCK_DIMS`], a launch per step),
    /// or none.
    pub host: Option<Vec<i64>>,
    /// Tile size per loop for the block-level `scf.forall` (0: not tiled).
    pub block: Vec<i64>,
    /// Tile size per loop inside a block for the thread-level `scf.forall`.
    pub thread: Vec<i64>,
    /// For contractions: the reduction tile per loop (an `scf.for` whose
    /// operand tiles are staged through shared memory).
    pub reduction: Option<Vec<i64>>,
    /// Threads per block, x then y.
    pub threads: [i64; 2],
    /// For contractions: the rank of each staged input.
    pub input_ranks: [usize; 2],
    /// The thread level is one warp per 16 x 8 output tile, whose product
    /// `dist-lower-gpu-mma` turns into `mma.sync` (the op is tagged
    /// [`MMA_TAG`] for it).
    pub mma: bool,
}

/// The tile one `mma.sync.m16n8k16` computes: M, N and K.
pub const MMA_SHAPE: [i64; 3] = [16, 8, 16];
/// Threads in a warp.
const WARP: i64 = 32;

/// The largest divisor of `size` that is at most `limit` (at least 1).
fn divisor_up_to(size: i64, limit: i64) -> i64 {
    (1..=limit.min(size).max(1)).rev().find(|d| size % d == 0).unwrap_or(1)
}

/// Plans `loops`; `None` for ops that stay on the host: dynamic loops, or no
/// parallel loop to spread over threads.
pub fn plan(loops: &[Loop], contraction: Option<&Contraction>, limits: Limits) -> Option<Plan> {
    if loops.iter().any(|l| l.size < 1) {
        return None;
    }
    let plan = match contraction {
        Some(c) if fits_mma(loops, c) && limits.max_threads >= WARP => plan_mma(loops, c, limits),
        Some(c) if !c.m.is_empty() && !c.n.is_empty() && !c.k.is_empty() => plan_contraction(loops, c, limits),
        _ => plan_elementwise(loops, limits)?,
    };
    Some(plan.hoist_beyond_grid())
}

/// Block tiles of BM x BN outputs over batch x M x N, a K loop in steps of BK
/// whose operand tiles go to shared memory, and a thread grid of up to 16 x 16
/// each computing a BM/ty x BN/tx sub-tile.
fn plan_contraction(loops: &[Loop], c: &Contraction, limits: Limits) -> Plan {
    let n = loops.len();
    let mut block = vec![0; n];
    let mut thread = vec![0; n];
    let mut reduction = vec![0; n];
    for &d in &c.batch {
        block[d] = 1;
    }
    // Only the innermost M, N and K loops are tiled wide; the others step by one.
    let (&m_last, &n_last, &k_last) = (c.m.last().unwrap(), c.n.last().unwrap(), c.k.last().unwrap());
    for &d in c.m.iter().chain(&c.n) {
        block[d] = 1;
    }
    for &d in &c.k {
        reduction[d] = 1;
    }
    let [tile_m, tile_n, tile_k] = limits.matmul_tile;
    let bm = divisor_up_to(loops[m_last].size, tile_m);
    let bn = divisor_up_to(loops[n_last].size, tile_n);
    block[m_last] = bm;
    block[n_last] = bn;
    reduction[k_last] = divisor_up_to(loops[k_last].size, tile_k);
    let side = (limits.max_threads as f64).sqrt() as i64;
    let tx = divisor_up_to(bn, side.max(1));
    let ty = divisor_up_to(bm, (limits.max_threads / tx).min(side).max(1));
    thread[m_last] = bm / ty;
    thread[n_last] = bn / tx;
    Plan {
        host: None,
        block,
        thread,
        reduction: Some(reduction),
        threads: [tx, ty],
        input_ranks: c.input_ranks,
        mma: false,
    }
}

/// Whether `c` runs on the tensor cores: bf16 into f32, one M, N and K loop
/// each, of multiples of the `mma.sync` tile.
fn fits_mma(loops: &[Loop], c: &Contraction) -> bool {
    let single = |dims: &[usize]| match dims {
        [d] => Some(loops[*d].size),
        _ => None,
    };
    let sizes = [single(&c.m), single(&c.n), single(&c.k)];
    c.tensor_cores
        && sizes
            .iter()
            .zip(MMA_SHAPE)
            .all(|(size, tile)| size.is_some_and(|s| s % tile == 0))
}

/// The largest multiple of `step` at most `limit` that divides `size` (a
/// multiple of `step`), and at least `step`.
fn multiple_up_to(size: i64, step: i64, limit: i64) -> i64 {
    (1..=limit / step)
        .rev()
        .map(|q| q * step)
        .find(|d| size % d == 0)
        .unwrap_or(step)
}

/// Block tiles of BM x BN outputs (multiples of 16 and 8, at most the
/// matmul tile, shrunk until its warps fit the block's threads), a K loop
/// in steps of 16 whose operand tiles go to shared memory, and one warp per
/// 16 x 8 output tile: warps along N in x, along M in y.
fn plan_mma(loops: &[Loop], c: &Contraction, limits: Limits) -> Plan {
    let n = loops.len();
    let (m_loop, n_loop, k_loop) = (c.m[0], c.n[0], c.k[0]);
    let [tile_m, tile_n, _] = limits.matmul_tile;
    let [mma_m, mma_n, mma_k] = MMA_SHAPE;
    let mut bm = multiple_up_to(loops[m_loop].size, mma_m, tile_m.max(mma_m));
    let mut bn = multiple_up_to(loops[n_loop].size, mma_n, tile_n.max(mma_n));
    let max_warps = (limits.max_threads / WARP).max(1);
    while (bm / mma_m) * (bn / mma_n) > max_warps {
        if bm / mma_m >= bn / mma_n && bm > mma_m {
            bm = multiple_up_to(loops[m_loop].size, mma_m, bm - mma_m);
        } else if bn > mma_n {
            bn = multiple_up_to(loops[n_loop].size, mma_n, bn - mma_n);
        } else {
            break;
        }
    }
    let mut block = vec![0; n];
    let mut thread = vec![0; n];
    let mut reduction = vec![0; n];
    for &d in &c.batch {
        block[d] = 1;
    }
    block[m_loop] = bm;
    block[n_loop] = bn;
    thread[m_loop] = mma_m;
    thread[n_loop] = mma_n;
    reduction[k_loop] = mma_k;
    Plan {
        host: None,
        block,
        thread,
        reduction: Some(reduction),
        threads: [WARP * bn / mma_n, bm / mma_m],
        input_ranks: c.input_ranks,
        mma: true,
    }
}

/// One thread per output element of the innermost parallel loop (and of the
/// next one out while the block has room); reductions run in the thread.
fn plan_elementwise(loops: &[Loop], limits: Limits) -> Option<Plan> {
    let parallel: Vec<usize> = (0..loops.len()).filter(|&d| !loops[d].reduction).collect();
    let (&x, rest) = parallel.split_last()?;
    let mut block = vec![0; loops.len()];
    let mut thread = vec![0; loops.len()];
    for &d in &parallel {
        block[d] = 1;
    }
    let tx = divisor_up_to(loops[x].size, limits.max_threads);
    block[x] = tx;
    thread[x] = 1;
    let mut ty = 1;
    if let Some(&y) = rest.last()
        && tx < limits.max_threads
    {
        ty = divisor_up_to(loops[y].size, limits.max_threads / tx);
        if ty > 1 {
            block[y] = ty;
            thread[y] = 1;
        }
    }
    Some(Plan {
        host: None,
        block,
        thread,
        reduction: None,
        threads: [tx, ty],
        input_ranks: [0, 0],
        mma: false,
    })
}

fn list(sizes: &[i64]) -> String {
    let items: Vec<String> = sizes.iter().map(i64::to_string).collect();
    format!("[{}]", items.join(", "))
}

/// Block mapping of a forall over `dims` dims: linear, innermost fastest.
fn block_mapping(dims: usize) -> String {
    let items: Vec<String> = (0..dims).rev().map(|i| format!("#gpu.block<linear_dim_{i}>")).collect();
    format!("[{}]", items.join(", "))
}

/// Thread mapping of a forall over one or two dims: x innermost.
fn thread_mapping(dims: usize) -> &'static str {
    if dims == 1 {
        "[#gpu.thread<x>]"
    } else {
        "[#gpu.thread<y>, #gpu.thread<x>]"
    }
}

/// Warp mapping of the M x N forall of an mma plan: N in x.
const WARP_MAPPING: &str = "[#gpu.warp<y>, #gpu.warp<x>]";

fn tiled_dims(sizes: &[i64]) -> usize {
    sizes.iter().filter(|&&s| s != 0).count()
}

const ANY: &str = "!transform.any_op";

impl Plan {
    /// Takes the outermost block loops that step by one off the grid until
    /// at most [`MAX_BLOCK_DIMS`] remain (the wide tiles are the innermost:
    /// at most two). An elementwise op's run inside each thread, which
    /// loops over them: one launch, whose grid the inner dims fill. A
    /// contraction's go to a host loop around the launch, a launch per
    /// step, since whole outer dims would multiply its shared-memory tiles.
    fn hoist_beyond_grid(mut self) -> Self {
        let excess = tiled_dims(&self.block).saturating_sub(MAX_BLOCK_DIMS);
        if excess == 0 {
            return self;
        }
        let mut host = vec![0; self.block.len()];
        let outer: Vec<usize> = (0..self.block.len())
            .filter(|&d| self.block[d] == 1)
            .take(excess)
            .collect();
        for d in outer {
            host[d] = 1;
            self.block[d] = 0;
        }
        if self.reduction.is_some() {
            self.host = Some(host);
        }
        self
    }

    /// The tensor-level steps for op `index`: block tiling, then the thread
    /// tiling (elementwise) or the reduction loop (contractions); the block
    /// forall is tagged with `index` for the mapping steps.
    pub fn write_tile_steps(&self, index: usize, out: &mut String) {
        let tag = format!("{{{TAG} = {index} : i64}}");
        let _ = writeln!(
            out,
            "    %op{index} = transform.structured.match attributes {tag} in %root : ({ANY}) -> {ANY}"
        );
        let mut target = format!("%op{index}");
        if let Some(host) = &self.host {
            let loops: Vec<String> = (0..tiled_dims(host)).map(|l| format!(", %host{index}_{l}")).collect();
            let types = vec![ANY; loops.len() + 1].join(", ");
            let _ = writeln!(
                out,
                "    %hosted{index}{} = transform.structured.tile_using_for %op{index} tile_sizes {} \
                 : ({ANY}) -> ({types})",
                loops.concat(),
                list(host),
            );
            target = format!("%hosted{index}");
        }
        let _ = writeln!(
            out,
            "    %blocked{index}, %forall{index} = transform.structured.tile_using_forall {target} tile_sizes {} \
             (mapping = {}) : ({ANY}) -> ({ANY}, {ANY})\n    \
             %index{index} = transform.param.constant {index} : i64 -> !transform.param<i64>\n    \
             transform.annotate %forall{index} \"{TAG}\" = %index{index} : {ANY}, !transform.param<i64>",
            list(&self.block),
            block_mapping(tiled_dims(&self.block)),
        );
        match &self.reduction {
            Some(reduction) => {
                let _ = writeln!(
                    out,
                    "    %staged{index}, %k{index} = transform.structured.tile_using_for %blocked{index} tile_sizes {} \
                     : ({ANY}) -> ({ANY}, {ANY})",
                    list(reduction)
                );
            }
            None => {
                let _ = writeln!(
                    out,
                    "    %threaded{index}, %tforall{index} = transform.structured.tile_using_forall %blocked{index} \
                     tile_sizes {} (mapping = {}) : ({ANY}) -> ({ANY}, {ANY})",
                    list(&self.thread),
                    thread_mapping(tiled_dims(&self.thread)),
                );
            }
        }
    }

    /// The buffer-level steps for op `index`: for contractions, the operand
    /// tiles promoted to shared memory, their copies and the product spread
    /// over the threads; then the block forall becomes a `gpu.launch` and
    /// its thread foralls thread ids (with a barrier after each).
    pub fn write_map_steps(&self, index: usize, out: &mut String) {
        let tag = format!("{{{TAG} = {index} : i64}}");
        let _ = writeln!(
            out,
            "    %forall{index} = transform.structured.match ops{{[\"scf.forall\"]}} attributes {tag} in %root \
             : ({ANY}) -> {ANY}"
        );
        if self.reduction.is_some() {
            let _ = writeln!(
                out,
                "    %staged{index} = transform.structured.match interface{{LinalgOp}} attributes {tag} in \
                 %forall{index} : ({ANY}) -> {ANY}\n    \
                 %promoted{index} = transform.structured.promote %staged{index} {{operands_to_promote = [0, 1], \
                 memory_space = #gpu.address_space<workgroup>}} : ({ANY}) -> {ANY}\n    \
                 %threaded{index}, %tforall{index} = transform.structured.tile_using_forall %promoted{index} \
                 tile_sizes {} (mapping = {}) : ({ANY}) -> ({ANY}, {ANY})\n    {}\
                 %copies{index} = transform.structured.match ops{{[\"linalg.copy\"]}} in %forall{index} \
                 : ({ANY}) -> {ANY}\n    \
                 %copy_a{index}, %copy_b{index} = transform.split_handle %copies{index} : ({ANY}) -> ({ANY}, {ANY})",
                list(&self.thread),
                if self.mma {
                    WARP_MAPPING
                } else {
                    thread_mapping(tiled_dims(&self.thread))
                },
                if self.mma {
                    format!("transform.annotate %threaded{index} \"{MMA_TAG}\" : {ANY}\n    ")
                } else {
                    String::new()
                },
            );
            for (operand, rank) in [("a", self.input_ranks[0]), ("b", self.input_ranks[1])] {
                let mut threads = vec![0; rank];
                let width = rank.min(2);
                threads[rank - width..].copy_from_slice(&[self.threads[1], self.threads[0]][2 - width..]);
                let _ = writeln!(
                    out,
                    "    %copied_{operand}{index}, %cforall_{operand}{index} = transform.structured.tile_using_forall \
                     %copy_{operand}{index} num_threads {} (mapping = {}) : ({ANY}) -> ({ANY}, {ANY})",
                    list(&threads),
                    thread_mapping(width),
                );
            }
        }
        let _ = writeln!(
            out,
            "    %launch{index} = transform.gpu.map_forall_to_blocks %forall{index} {{generate_gpu_launch}} \
             : ({ANY}) -> {ANY}\n    \
             transform.gpu.map_nested_forall_to_threads %launch{index} block_dims = [{}, {}, 1] \
             sync_after_distribute = {} : ({ANY}) -> {ANY}",
            self.threads[0],
            self.threads[1],
            // Barriers order the shared-memory stages; elementwise kernels need none.
            self.reduction.is_some(),
        );
    }
}

/// The attribute naming each scheduled op (and its block forall).
pub const TAG: &str = "dist.gpu_tile";
/// The attribute of a warp's 16 x 8 x 16 product for `dist-lower-gpu-mma`.
pub const MMA_TAG: &str = "dist.gpu_mma";
/// The named sequences of the schedule.
pub const TILE_SEQUENCE: &str = "__dist_gpu_tile";
pub const MAP_SEQUENCE: &str = "__dist_gpu_map";
/// The symbol of the module holding the schedule.
pub const SCHEDULE_MODULE: &str = "__dist_gpu_schedule";

/// The whole schedule for `plans` (indexed by their tag) as a module.
pub fn schedule(plans: &[Plan]) -> String {
    let mut tile = String::new();
    let mut map = String::new();
    for (index, plan) in plans.iter().enumerate() {
        plan.write_tile_steps(index, &mut tile);
        plan.write_map_steps(index, &mut map);
    }
    let sequence = |name: &str, body: &str| {
        format!(
            "  transform.named_sequence @{name}(%root: {ANY} {{transform.readonly}}) {{\n{body}    transform.yield\n  }}\n"
        )
    };
    format!(
        "module @{SCHEDULE_MODULE} attributes {{transform.with_named_sequence}} {{\n{}{}}}\n",
        sequence(TILE_SEQUENCE, &tile),
        sequence(MAP_SEQUENCE, &map)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loops(sizes: &[(i64, bool)]) -> Vec<Loop> {
        sizes
            .iter()
            .map(|&(size, reduction)| Loop { size, reduction })
            .collect()
    }

    #[test]
    fn matmul_tiles_divide_and_fill_the_block() {
        let c = Contraction {
            m: vec![0],
            n: vec![1],
            k: vec![2],
            input_ranks: [2, 2],
            ..Default::default()
        };
        let p = plan(
            &loops(&[(256, false), (512, false), (128, true)]),
            Some(&c),
            Limits::default(),
        )
        .unwrap();
        assert_eq!(p.block, [64, 64, 0]);
        assert_eq!(p.reduction.as_deref(), Some(&[0, 0, 16][..]));
        assert_eq!(p.threads, [16, 16]);
        assert_eq!(p.thread, [4, 4, 0]);
    }

    #[test]
    fn small_and_odd_matmuls_take_divisors() {
        let c = Contraction {
            batch: vec![0],
            m: vec![1],
            n: vec![2],
            k: vec![3],
            input_ranks: [3, 3],
            ..Default::default()
        };
        let p = plan(
            &loops(&[(4, false), (24, false), (10, false), (7, true)]),
            Some(&c),
            Limits::default(),
        )
        .unwrap();
        assert_eq!(p.block, [1, 24, 10, 0]);
        assert_eq!(p.reduction.as_deref(), Some(&[0, 0, 0, 7][..]));
        assert_eq!(p.threads, [10, 12]);
        assert_eq!(p.thread, [0, 2, 1, 0]);
    }

    #[test]
    fn bf16_products_of_tile_multiples_take_a_warp_per_mma_tile() {
        let c = Contraction {
            m: vec![0],
            n: vec![1],
            k: vec![2],
            input_ranks: [2, 2],
            tensor_cores: true,
            ..Default::default()
        };
        let sizes = loops(&[(256, false), (512, false), (128, true)]);
        let p = plan(&sizes, Some(&c), Limits::default()).unwrap();
        // 64 x 64 would be 32 warps: shrunk to 32 x 32, 2 x 4 warps.
        assert!(p.mma);
        assert_eq!(p.block, [32, 32, 0]);
        assert_eq!(p.thread, [16, 8, 0]);
        assert_eq!(p.reduction.as_deref(), Some(&[0, 0, 16][..]));
        assert_eq!(p.threads, [128, 2]);
        let text = schedule(&[p]);
        assert!(text.contains("mapping = [#gpu.warp<y>, #gpu.warp<x>]"), "{text}");
        assert!(
            text.contains("transform.annotate %threaded0 \"dist.gpu_mma\""),
            "{text}"
        );
        // A K that is not a multiple of 16, f32 inputs, or two M loops: threads.
        for (sizes, tensor_cores, m) in [
            (loops(&[(256, false), (512, false), (40, true)]), true, vec![0]),
            (sizes.clone(), false, vec![0]),
        ] {
            let c = Contraction {
                tensor_cores,
                m,
                ..c.clone()
            };
            assert!(!plan(&sizes, Some(&c), Limits::default()).unwrap().mma);
        }
        let two_m = Contraction {
            m: vec![0, 1],
            n: vec![2],
            k: vec![3],
            input_ranks: [3, 2],
            tensor_cores: true,
            ..Default::default()
        };
        let sizes = loops(&[(4, false), (32, false), (64, false), (32, true)]);
        assert!(!plan(&sizes, Some(&two_m), Limits::default()).unwrap().mma);
    }

    #[test]
    fn elementwise_spreads_the_inner_loops_over_threads() {
        let p = plan(
            &loops(&[(2, false), (16, false), (128, false)]),
            None,
            Limits::default(),
        )
        .unwrap();
        assert_eq!(p.block, [1, 2, 128]);
        assert_eq!(p.thread, [0, 1, 1]);
        assert_eq!(p.threads, [128, 2]);
        // A row reduction: one thread per row, the reduction inside it.
        let p = plan(&loops(&[(32, false), (1000, true)]), None, Limits::default()).unwrap();
        assert_eq!(p.block, [32, 0]);
        assert_eq!(p.thread, [1, 0]);
        assert_eq!(p.threads, [32, 1]);
    }

    #[test]
    fn loops_beyond_the_grid_step_on_the_host() {
        // Attention's scores: batch, heads, then M x N x K.
        let c = Contraction {
            batch: vec![0, 1],
            m: vec![2],
            n: vec![3],
            k: vec![4],
            input_ranks: [4, 4],
            ..Default::default()
        };
        let p = plan(
            &loops(&[(4, false), (8, false), (128, false), (128, false), (64, true)]),
            Some(&c),
            Limits::default(),
        )
        .unwrap();
        assert_eq!(p.host.as_deref(), Some(&[1, 0, 0, 0, 0][..]));
        assert_eq!(p.block, [0, 1, 64, 64, 0]);
        let text = schedule(&[p]);
        assert!(
            text.contains("%hosted0, %host0_0 = transform.structured.tile_using_for %op0 tile_sizes [1, 0, 0, 0, 0]"),
            "{text}"
        );
        assert!(
            text.contains("tile_using_forall %hosted0 tile_sizes [0, 1, 64, 64, 0]"),
            "{text}"
        );
        // A 5-D elementwise op: its two outer loops inside the threads.
        let p = plan(&loops(&[(2, false); 5]), None, Limits::default()).unwrap();
        assert_eq!(p.host, None);
        assert_eq!(p.block, [0, 0, 1, 2, 2]);
        assert_eq!(p.thread, [0, 0, 0, 1, 1]);
        // Three loops fit the grid.
        let p = plan(&loops(&[(2, false); 3]), None, Limits::default()).unwrap();
        assert_eq!(p.host, None);
    }

    #[test]
    fn full_reductions_and_dynamic_loops_stay_on_the_host() {
        assert_eq!(plan(&loops(&[(64, true)]), None, Limits::default()), None);
        assert_eq!(plan(&loops(&[(0, false)]), None, Limits::default()), None);
    }

    #[test]
    fn schedule_names_each_op_and_its_launch() {
        let p = plan(&loops(&[(8, false)]), None, Limits::default()).unwrap();
        let text = schedule(&[p]);
        assert!(text.contains("attributes {dist.gpu_tile = 0 : i64}"), "{text}");
        assert!(
            text.contains("tile_sizes [8] (mapping = [#gpu.block<linear_dim_0>])"),
            "{text}"
        );
        assert!(text.contains("block_dims = [8, 1, 1]"), "{text}");
    }
}
