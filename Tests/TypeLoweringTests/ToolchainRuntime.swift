import Foundation
import TypeLayout

/// The Swift runtime library a test reads binaries with: the libswiftCore.so this test process
/// runs on (the toolchain that built the fixtures), found in the process's own mappings.
enum ToolchainRuntime {
    /// The path of the mapped libswiftCore.so, or nil for a process without one.
    static let libswiftCore: String? = {
        // procfs files state no size, so they are read to the end rather than by their size.
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/maps"), let data = try? handle.readToEnd() else { return nil }
        let maps = String(decoding: data, as: UTF8.self)
        for line in maps.split(separator: "\n") where line.hasSuffix("/libswiftCore.so") {
            if let slash = line.firstIndex(of: "/") { return String(line[slash...]) }
        }
        return nil
    }()
}

/// Whether a note says static metadata and the computed layout disagree.
func isDisagreement(_ note: LayoutNote) -> Bool {
    if case .metadataDisagreesWithComputed = note { return true }
    return false
}
