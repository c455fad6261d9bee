/// ELF machine numbers (`e_machine`, elf.h) and the relocation types the readers apply, named
/// once per machine so that BinaryInfo and DWARFInfo spell architectures alike and never apply
/// one machine's relocation number with another machine's meaning.
public enum ELFMachine: UInt16, Sendable, CaseIterable {
    case i386 = 3
    case ppc64 = 21
    case s390 = 22
    case arm = 40
    case x86_64 = 62
    case aarch64 = 183
    case riscv = 243

    /// The machine this process runs on (nil on one not named here): the only one whose live
    /// processes and core files the target readers read, since the runtime they load is this one's.
    public static var host: ELFMachine? {
        #if arch(x86_64)
        return .x86_64
        #elseif arch(arm64)
        return .aarch64
        #else
        return nil
        #endif
    }

    /// The architecture as `uname -m` spells it (PowerPC's name depends on the byte order).
    public func architectureName(isLittleEndian: Bool) -> String {
        switch self {
        case .i386: return "i386"
        case .ppc64: return isLittleEndian ? "ppc64le" : "ppc64"
        case .s390: return "s390x"
        case .arm: return "arm"
        case .x86_64: return "x86_64"
        case .aarch64: return "aarch64"
        case .riscv: return "riscv64"
        }
    }

    /// The architecture name of a raw `e_machine` value, or nil for a machine not named here.
    public static func architectureName(of machine: UInt16, isLittleEndian: Bool) -> String? {
        ELFMachine(rawValue: machine)?.architectureName(isLittleEndian: isLittleEndian)
    }

    /// The relocation types of this machine that a metadata reader applies, or nil for a machine
    /// whose relocations it does not apply (pointers that need them are then unknown).
    public var relocationTypes: RelocationTypes? {
        switch self {
        case .x86_64:
            // R_X86_64_64, PC32, GOTPCREL, GLOB_DAT, JUMP_SLOT, RELATIVE, PLT32, GOTPCRELX, REX_GOTPCRELX.
            return RelocationTypes(
                absolute64: [1], relative: [8], globalData: [6], jumpSlot: [7], pcRelative32: [2, 4], gotPCRelative32: [9, 41, 42])
        case .aarch64:
            // R_AARCH64_ABS64, PREL32, GLOB_DAT, JUMP_SLOT, RELATIVE.
            return RelocationTypes(
                absolute64: [257], relative: [1027], globalData: [1025], jumpSlot: [1026], pcRelative32: [261], gotPCRelative32: [])
        default:
            return nil
        }
    }
}

/// The relocation types of one machine, grouped by what applying them computes
/// (S: the symbol's address, A: the addend, P: the place, G + GOT: the address of the symbol's GOT slot).
public struct RelocationTypes: Sendable, Hashable {
    /// `S + A`, 64 bits (in object files, and dynamic symbolic relocations of data).
    public let absolute64: Set<UInt32>
    /// Dynamic `B + A`: the load base plus the addend (`*_RELATIVE`).
    public let relative: Set<UInt32>
    /// Dynamic `S`: a GOT slot filled with a symbol's address (`*_GLOB_DAT`).
    public let globalData: Set<UInt32>
    /// Dynamic `S`: a PLT slot of a function (`*_JUMP_SLOT`).
    public let jumpSlot: Set<UInt32>
    /// `S + A - P`, 32 bits (relative references in object files).
    public let pcRelative32: Set<UInt32>
    /// `G + GOT + A - P`, 32 bits (indirect relative references in object files).
    public let gotPCRelative32: Set<UInt32>
}
