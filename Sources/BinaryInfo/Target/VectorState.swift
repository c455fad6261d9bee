/// The layout of a thread's vector registers as ptrace and core files give them: x86_64's XSAVE
/// area in its standard form.
///
/// The first 512 bytes are the legacy region `FXSAVE` writes (the x87 registers st0–st7 at 32,
/// 16 bytes each; xmm0–xmm15 at 160), then the 64-byte XSAVE header, then each enabled component
/// at the offset the processor states (`CPUID` leaf 0xD). The AVX component (ymm0–ymm15's upper
/// halves) lies at 576 wherever AVX exists; later components (AVX-512's opmask and zmm
/// registers, AMX tiles) lie where the processor that wrote the area put them, so their words
/// are named by offset only. Every word of the area is a root for `leaks`: a word that is no
/// pointer can only keep an allocation off the list, never put one on it.
public enum VectorState {
    /// The most words kept of a thread's area: 16 KiB, more than AVX-512's 2,696 bytes.
    public static let maximumWords = 2048
    /// The legacy region's words (`NT_PRFPREG`, `PTRACE_GETFPREGS`).
    public static let legacyWords = 64

    static let x87Offset = 32
    static let xmmOffset = 160
    static let headerOffset = 512
    static let avxOffset = 576
    static let registerCount = 16

    /// The register a word of the area belongs to, and which of its bits the word holds:
    /// `xmm6 bits 0-63`, `ymm7 bits 128-191`, `st2 bits 0-63`, else the area and offset
    /// (`XSAVE area +0x4a0`).
    public static func name(ofWord word: Int) -> String {
        let offset = word * 8
        func bits(_ within: Int, base: Int) -> String {
            let low = base + within * 64
            return "bits \(low)-\(low + 63)"
        }
        if offset >= x87Offset, offset < xmmOffset {
            let register = (offset - x87Offset) / 16
            return "st\(register) \(bits((offset - x87Offset) % 16 / 8, base: 0))"
        }
        if offset >= xmmOffset, offset < xmmOffset + registerCount * 16 {
            let register = (offset - xmmOffset) / 16
            return "xmm\(register) \(bits((offset - xmmOffset) % 16 / 8, base: 0))"
        }
        if offset >= avxOffset, offset < avxOffset + registerCount * 16 {
            let register = (offset - avxOffset) / 16
            return "ymm\(register) \(bits((offset - avxOffset) % 16 / 8, base: 128))"
        }
        return "XSAVE area +0x\(String(offset, radix: 16))"
    }
}
