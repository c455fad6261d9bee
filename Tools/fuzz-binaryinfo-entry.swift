// libFuzzer entry point for BinaryInfo: every input is parsed as an ELF image held in memory.
// Built and run by Tools/fuzz-binaryinfo; a crash, trap, hang or sanitizer report is a bug.
import BinaryInfo

@_cdecl("LLVMFuzzerTestOneInput")
public func binaryInfoFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // A clear error is a fine outcome; only a crash is not.
    _ = try? BinaryImage.layouts(of: bytes, name: "fuzz-input")
    // The loader's view that TypeLowering's worker lays out: sections, .dynamic, relocations, symbols.
    if let image = try? LoadableImage(bytes: bytes, name: "fuzz-input") {
        _ = image.neededLibraries.count + image.searchPaths.count + image.relocations.count
        _ = image.address(ofSymbol: "$sSiN")
        _ = image.address(ofSymbol: "$sSiMn")
    }
    return 0
}
