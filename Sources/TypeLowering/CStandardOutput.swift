#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// C's `stdout` and C++'s `std::cout`, as far as ``RemoteMirrorContext/dump(of:)`` needs them:
/// a buffer of its own for `stdout`, and after each call, the pending bytes dropped and both
/// streams' error states cleared. Reached through the C and C++ runtime libraries' exported
/// symbols (`stdout`, `__fpurge`, `std::cout`, `std::basic_ios<char>::clear`), which the
/// reflection library itself links; nil when any is missing.
final class CStandardOutput {
    private let stream: UnsafeMutablePointer<FILE>
    private let purge: @convention(c) (UnsafeMutablePointer<FILE>) -> Void
    private let clearState: @convention(c) (UnsafeMutableRawPointer, Int32) -> Void
    /// `std::cout`'s `basic_ios` (a virtual base: its offset is in the vtable, 3 words before
    /// the address point, by the Itanium C++ ABI).
    private let coutState: UnsafeMutableRawPointer

    init?(buffer: UnsafeMutableRawBufferPointer) {
        guard let handle = dlopen(nil, RTLD_NOW),
            let streamVariable = dlsym(handle, "stdout"),
            let purgeSymbol = dlsym(handle, "__fpurge"),
            let clearSymbol = dlsym(handle, "_ZNSt9basic_iosIcSt11char_traitsIcEE5clearESt12_Ios_Iostate"),
            let cout = dlsym(handle, "_ZSt4cout"),
            let stream = streamVariable.load(as: UnsafeMutablePointer<FILE>?.self),
            let base = buffer.baseAddress
        else { return nil }
        let vtable = cout.load(as: UnsafeRawPointer.self)
        let virtualBaseOffset = vtable.load(fromByteOffset: -3 * MemoryLayout<Int>.size, as: Int.self)
        // A libstdc++ ostream puts its basic_ios right after its vtable pointer; anything far off
        // is not the layout this relies on.
        guard virtualBaseOffset > 0, virtualBaseOffset < 64 else { return nil }
        self.stream = stream
        self.purge = unsafeBitCast(purgeSymbol, to: (@convention(c) (UnsafeMutablePointer<FILE>) -> Void).self)
        self.clearState = unsafeBitCast(clearSymbol, to: (@convention(c) (UnsafeMutableRawPointer, Int32) -> Void).self)
        self.coutState = cout + virtualBaseOffset
        fflush(stream)
        guard setvbuf(stream, base.assumingMemoryBound(to: CChar.self), _IOFBF, buffer.count) == 0 else { return nil }
    }

    /// Drops what `stdout` holds unwritten and clears both streams' error states (goodbit is 0).
    func reset() {
        purge(stream)
        clearerr(stream)
        clearState(coutState, 0)
    }
}
