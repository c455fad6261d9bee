import BinaryInfo

/// Recently read 64 KiB windows of a live process's memory, for the reflection library's many
/// small reads: reading one task costs it about nine reads of a few dozen bytes each, nearly all
/// within the task's own allocation, and each read of a process is a system call
/// (`process_vm_readv`); a window read once answers the reads near it.
///
/// Direct-mapped: a window's slot is fixed by its address, a newer window replaces an older one.
/// A window that cannot be read whole (it runs into unmapped memory) is remembered as such, and
/// reads in it go to the process directly. The windows are the process's memory as it was when
/// each was read, as every read of a running process is.
final class TargetReadWindows {
    static let windowSize: UInt64 = 1 << 16
    static let slotCount = 256

    /// The window address each slot holds, or nil; `readable` says whether it could be read.
    private var tags: [(window: UInt64, readable: Bool)?]
    private let storage: UnsafeMutableRawBufferPointer

    init() {
        tags = Array(repeating: nil, count: Self.slotCount)
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(Self.windowSize) * Self.slotCount, alignment: 16)
    }

    deinit { storage.deallocate() }

    /// Forgets every window: later reads read the process again.
    func forget() {
        for slot in tags.indices { tags[slot] = nil }
    }

    /// Copies `destination.count` bytes at `address` from a window, reading the window first if
    /// needed; false when the bytes do not lie in one readable window (read them directly).
    func read(into destination: UnsafeMutableRawBufferPointer, at address: UInt64, memory: TargetMemory) -> Bool {
        let window = address & ~(Self.windowSize - 1)
        let (end, overflow) = address.addingReportingOverflow(UInt64(destination.count))
        guard !overflow, end <= window &+ Self.windowSize, window &+ Self.windowSize > window else { return false }
        let slot = Int(truncatingIfNeeded: (window >> 16) ^ (window >> 24)) & (Self.slotCount - 1)
        let base = slot * Int(Self.windowSize)
        let slotBytes = UnsafeMutableRawBufferPointer(rebasing: storage[base..<base + Int(Self.windowSize)])
        if tags[slot]?.window != window {
            let readable = (try? memory.fetch(into: slotBytes, from: window, what: "memory")) != nil
            tags[slot] = (window, readable)
        }
        guard tags[slot]?.readable == true else { return false }
        let offset = Int(address - window)
        destination.copyMemory(from: UnsafeRawBufferPointer(rebasing: slotBytes[offset..<offset + destination.count]))
        return true
    }
}
