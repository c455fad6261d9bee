/// A target's regions as the arena search sees them, read again when a running process's memory
/// has moved on since they were read.
///
/// A running heap grows by `mprotect`ing more of its reserved mapping (or `sbrk`) before its
/// arena's `top` moves there. So an arena read after the maps may hold a top the maps call
/// unmapped or read-only. Such a check is made again on maps read after the arena's bytes,
/// which then include every growth that top reflects; a core or a stopped process is checked
/// once.
final class TargetRegionView {
    private(set) var regions: [TargetRegion]
    private let reread: (() throws(BinaryInfoError) -> [TargetRegion])?
    /// How many times the maps were read again.
    private(set) var rereadings = 0
    /// How many times an arena was read again because its parts, read at different moments,
    /// did not agree (``GlibcArenaLocator``).
    var arenasReread = 0

    /// Whether the target runs while it is read, so that what does not fit may be read again.
    var isChanging: Bool { reread != nil }

    /// More readings of the maps than any one search needs: each failing candidate costs one.
    static let maximumRereadings = 16

    init(_ regions: [TargetRegion], reread: (() throws(BinaryInfoError) -> [TargetRegion])?) {
        self.regions = regions
        self.reread = reread
    }

    /// Whether `holds` is true of the regions, asked again of freshly read maps when it is not
    /// and the target runs.
    func check(_ holds: ([TargetRegion]) -> Bool) throws(BinaryInfoError) -> Bool {
        if holds(regions) { return true }
        guard let reread, rereadings < Self.maximumRereadings else { return false }
        rereadings += 1
        regions = try reread()
        return holds(regions)
    }
}
