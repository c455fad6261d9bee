// libFuzzer entry point for DWARFInfo: every input is written to a scratch file and read with
// DWARFReader (libdwarf opens files by path). Built and run by Tools/fuzz-dwarfinfo; a crash,
// trap, hang or sanitizer report is a bug. libdwarf itself is not instrumented: coverage
// guides the fuzzer through DWARFInfo's own code, libdwarf is exercised by the inputs.
import DWARFInfo
import TypeLayout
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
    guard let reader = try? DWARFReader(path: scratchPath), let whole = try? reader.typeLayoutsByLanguage() else { return 0 }
    checkWholeTree(reader, unitByUnit: whole)
    checkSelectedReading(reader, whole: whole.swift)
    return 0
}

/// The layouts made one unit at a time must be those made from the whole tree
/// (``DWARFReadingShortcuts/readsUnitByUnit`` off): a difference is a bug, so it traps.
private func checkWholeTree(_ reader: DWARFReader, unitByUnit: (cFamily: [TypeLayout], swift: [TypeLayout])) {
    var wholeTree = reader
    wholeTree.shortcuts.readsUnitByUnit = false
    guard let tree = try? wholeTree.typeLayoutsByLanguage() else {
        preconditionFailure("the whole tree failed where the reading unit by unit did not")
    }
    precondition(tree.cFamily == unitByUnit.cFamily && tree.swift == unitByUnit.swift, "unit by unit differs from the whole tree")
}

/// A reading of a few Swift types (only the units whose top-level names can hold them) must give
/// those types exactly as the reading of every unit did: a difference is a bug, so it traps.
private func checkSelectedReading(_ reader: DWARFReader, whole: [TypeLayout]) {
    var byName: [String: TypeLayout] = [:]
    for layout in whole where byName[layout.name] == nil { byName[layout.name] = layout }
    // The kinds a selection compares with DWARF.
    let comparable = whole.filter { [.struct, .class, .enum].contains($0.kind) }
    guard let first = comparable.first, let last = comparable.last else { return }
    let chosen = [first, comparable[comparable.count / 2], last]
    let selected: DWARFSelectedLayouts
    do {
        selected = try reader.typeLayouts(languages: .swift, selecting: DWARFTypeSelection(chosen))
    } catch {
        preconditionFailure("the selected reading failed where the whole reading did not: \(error)")
    }
    var selectedByName: [String: TypeLayout] = [:]
    for layout in selected.swift where selectedByName[layout.name] == nil { selectedByName[layout.name] = layout }
    for type in chosen where selectedByName[type.name] != byName[type.name] {
        preconditionFailure("the selected reading of \(type.name) differs from the whole reading")
    }
}
