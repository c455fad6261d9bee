// libFuzzer entry point for DWARFInfo: every input is written to a scratch file and read with
// DWARFReader (libdwarf opens files by path). Built and run by Tools/fuzz-dwarfinfo; a crash,
// trap, hang or sanitizer report is a bug. libdwarf itself is not instrumented: coverage
// guides the fuzzer through DWARFInfo's own code, libdwarf is exercised by the inputs.
import DWARFInfo
#if canImport(Glibc)
import Glibc
#endif

nonisolated(unsafe) private var scratchPath: String = {
    let directory = getenv("FUZZ_SCRATCH_DIR").map { String(cString: $0) } ?? "/tmp"
    return "\(directory)/fuzz-dwarfinfo-\(getpid()).o"
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func dwarfInfoFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let descriptor = open(scratchPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard descriptor >= 0 else { return 0 }
    var written = 0
    while written < size {
        let count = write(descriptor, data + written, size - written)
        if count <= 0 { break }
        written += count
    }
    close(descriptor)
    // A clear error is a fine outcome; only a crash is not.
    if let reader = try? DWARFReader(path: scratchPath) {
        _ = try? reader.typeLayouts()
    }
    return 0
}
