import Testing
import TypeLayout
@testable import TypeLowering

/// The worker's reply format and the texts the worker reads from the library: what is well formed
/// round-trips; anything else is one clear error, never a crash.
@Suite("The lowering wire format and the library's dump are parsed defensively")
struct LoweringWireTests {
    static let sample: LoweredType = {
        var type = LoweredType(mangling: "15LoweringFixture15PointerPayloadsO", kind: .multiPayloadEnum, size: 8, alignment: 8, stride: 8)
        type.children = [
            .init(
                name: "left", offset: 0, kind: .strongReference, size: 8, alignment: 8, stride: 8, mangledType: "15LoweringFixture4NodeC"),
            .init(name: "neither", offset: 0),
        ]
        type.extraInhabitants = 2045
        type.tagSpareBits = [0, 0, 0, 0, 0, 0, 0, 0xc0]
        return type
    }()

    @Test("a reply with extra inhabitants and tag bits round-trips")
    func roundTrip() throws {
        var parser = LoweringWire.ReplyParser()
        for line in ([LoweringWire.header, "ready"] + Self.sample.encoded().split(separator: "\n").map(String.init)) {
            try parser.consume(line)
        }
        #expect(parser.finished == [Self.sample])
    }

    @Test("a class instance request travels as a class line and comes back under its own key")
    func classInstanceRequest() throws {
        let key = LoweringWire.instanceKey("2nc4NodeC")
        var request = LoweringRequest(libraryPath: "/lib/rm.so", imagePaths: ["/bin/nc"], manglings: ["2nc4NodeC", key])
        request.sizeOnly = ["2nc4NodeC"]
        let text = try request.encoded()
        #expect(text.contains("\nsize 2nc4NodeC\nclass 2nc4NodeC\n"), "\(text)")
        let lines = text.split(separator: "\n").map(String.init)
        #expect(try LoweringRequest.decode(lines: lines).get() == request)
        #expect(LoweringWire.instanceMangling(key) == "2nc4NodeC")
        #expect(LoweringWire.instanceMangling("2nc4NodeC") == nil)
        #expect(LoweringWire.instanceMangling("@") == nil)
    }

    @Test(
        "malformed extra and tagbits lines are refused with the line named",
        arguments: [
            ("extra -1", "malformed 'extra -1'"),
            ("extra 99999999999", "malformed 'extra 99999999999'"),
            ("tagbits 0g", "malformed 'tagbits 0g'"),
            ("tagbits 000", "malformed 'tagbits 000'"),
            ("tagbits 000000000000000000", "malformed 'tagbits 000000000000000000'"),
            // Kinds are LoweredKind values: a name no kind has is refused, not carried along.
            ("child 0 structure 8 8 8 Si x", "malformed 'child 0 structure 8 8 8 Si x'"),
            ("info Struct 8 8 8 0", "malformed 'info Struct 8 8 8 0'"),
        ])
    func malformed(line: String, message: String) throws {
        var parser = LoweringWire.ReplyParser()
        for line in [LoweringWire.header, "ready", "begin T", "info struct 8 8 8 0"] { try parser.consume(line) }
        #expect {
            try parser.consume(line)
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test("the dump's first line gives the count; anything else gives nil")
    func dumpParsing() {
        #expect(
            LoweringSession.extraInhabitants(
                inDump: "(struct size=16 alignment=8 stride=16 num_extra_inhabitants=2147483647 bitwise_takable=1\n  (field name=x offset=0"
            ) == 2_147_483_647)
        #expect(
            LoweringSession.extraInhabitants(inDump: "(builtin size=1 alignment=1 stride=1 num_extra_inhabitants=0 bitwise_takable=1)") == 0
        )
        // A field's count on a later line is not the type's.
        #expect(LoweringSession.extraInhabitants(inDump: "<null type info>\n(builtin num_extra_inhabitants=3)") == nil)
        #expect(LoweringSession.extraInhabitants(inDump: "(struct num_extra_inhabitants=99999999999)") == nil)
        #expect(LoweringSession.extraInhabitants(inDump: "(struct num_extra_inhabitants=") == nil)
        #expect(LoweringSession.extraInhabitants(inDump: "") == nil)
        // The dump's buffer cut inside the count (no space after it), or text that is not the
        // dump's own first line (an indented nested line, a name line).
        #expect(LoweringSession.extraInhabitants(inDump: "(struct size=16 alignment=8 stride=16 num_extra_inhabitants=21474") == nil)
        #expect(
            LoweringSession.extraInhabitants(inDump: "  (struct size=8 alignment=8 stride=8 num_extra_inhabitants=1 bitwise_takable=1")
                == nil)
        #expect(LoweringSession.extraInhabitants(inDump: "Mangled name: $sSi num_extra_inhabitants=1 x") == nil)
    }

    @Test("seeded mutations of a reply: an error or a parse, never a crash")
    func mutatedReplies() {
        let lines = [LoweringWire.header, "ready"] + Self.sample.encoded().split(separator: "\n").map(String.init)
        var generator = SplitMix64(seed: 0x7A6B175)
        var refused = 0
        for _ in 0..<2000 {
            var text = Array(lines.joined(separator: "\n").utf8)
            for _ in 0..<(1 + Int(generator.next() % 4)) {
                let position = Int(generator.next() % UInt64(text.count))
                text[position] = UInt8(truncatingIfNeeded: generator.next() % 128)
            }
            var parser = LoweringWire.ReplyParser()
            do {
                for line in String(decoding: text, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) {
                    try parser.consume(String(line))
                }
            } catch {
                refused += 1
            }
            _ = LoweringSession.extraInhabitants(inDump: String(decoding: text, as: UTF8.self))
            _ = SpareBitMask.bytes(hex: String(decoding: text.prefix(40), as: UTF8.self))
        }
        #expect(refused > 0, "mutations that break the format are refused")
    }
}
