import BinaryFixtures
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// `typeinfo retainers` and the cycles of `typeinfo leaks`: the holder chains
/// `Fixtures/LiveLeaks/main.swift` says it built (a global's array, a strong holder beside a weak
/// one, an actor's state) are the oracle, with the objects it leaked and the ones only a stack,
/// a thread-specific value or a task-local value holds; by PID and from a gcore core.
@Suite("typeinfo retainers", .enabled(if: TypeinfoExecutable.path != nil, "the typeinfo executable is not built"))
struct RetainersCommandTests {
    struct Report: Decodable {
        var pid: Int32
        var leaked: [String: [String]]
        var reachable: [String: [String]]
        var chains: [String: [String]]
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Whether `holders` (a path's, root first) is the chain the fixture built: "global NAME" a
    /// global whose symbol is NAME, "Type.property" a holder of that type through that property
    /// (or a field inside it), "element" an array's element.
    static func matches(_ holders: [[String: Any]], _ chain: [String]) -> Bool {
        guard holders.count == chain.count else { return false }
        return zip(holders, chain).allSatisfy { holder, word in
            if word.hasPrefix("global ") {
                return holder["kind"] as? String == "global"
                    && (holder["symbol"] as? String)?.hasPrefix(String(word.dropFirst(7)) + " : ") == true
            }
            if word == "element" { return holder["element"] != nil }
            let shape = holder["shape"] as? String ?? ""
            return shape == word || shape.hasPrefix(word + ".")
        }
    }

    static func check(_ target: String, _ report: Report, _ source: String) throws {
        // Each chain the fixture built is one of the paths, and no path goes through a weak reference.
        for (address, chain) in report.chains {
            let result = try DumpCommandTests.run(["retainers", target, address, "--paths", "10", "--format", "json"])
            #expect(result.status == 0, "\(source): \(result.errors)")
            let document = try json(result.output)
            let paths = document["paths"] as? [[[String: Any]]] ?? []
            #expect(document["reachable"] as? Bool == true, "\(source): \(address)")
            #expect(paths.contains { matches($0, chain) }, "\(source): \(address) \(chain): \(paths.map { $0.map { $0["text"] ?? "" } })")
            #expect(!result.output.contains("WeakOnly"), "\(source): a path through a weak reference")
            // A path through references comes before any whose last word is no reference.
            if report.reachable["bits-also"] == [address] {
                #expect(paths.first.map { matches($0, chain) } == true, "\(source): \(paths.map { $0.map { $0["text"] ?? "" } })")
            }
            for path in paths {
                // Every step's word is a reference: the array of Ints is never passed through.
                for holder in path.dropLast() {
                    #expect(holder["conservative"] == nil, "\(source): \(address) through \(holder["text"] ?? "")")
                }
                let last = path.last?["shape"] as? String ?? ""
                #expect(
                    !last.hasPrefix("Swift._ContiguousArrayStorage<Swift.Int>") || path.last?["conservative"] as? Bool == true,
                    "\(source): \(last)")
            }
        }
        // An object only an Int field holds the address bits of is reachable through that
        // field, a step marked as no reference.
        for address in report.reachable["bit-pattern"] ?? [] {
            let result = try DumpCommandTests.run(["retainers", target, address, "--format", "json"])
            let paths = try json(result.output)["paths"] as? [[[String: Any]]] ?? []
            let last = paths.first?.last
            #expect(last?["conservative"] as? Bool == true, "\(source): \(result.output)")
            #expect((last?["field"] as? [String])?.first == "bits", "\(source): \(result.output)")
            #expect((last?["text"] as? String)?.hasSuffix("a word that is no reference; counted conservatively)") == true)
        }
        // The picture of one object's paths draws each holder the JSON names, whole, as the text does.
        if let (address, _) = report.chains.first {
            let json = try DumpCommandTests.run(["retainers", target, address, "--format", "json"])
            let picture = try DumpCommandTests.run(["retainers", target, address, "--format", "svg"])
            #expect(picture.status == 0, "\(source): \(picture.errors)")
            let titles = try #require(SVGTitles.parse(picture.output), "the picture is well-formed XML")
            let holders = (try Self.json(json.output)["paths"] as? [[[String: Any]]] ?? []).joined().compactMap { $0["text"] as? String }
            #expect(!holders.isEmpty)
            for holder in holders { #expect(titles.contains(holder), "\(source): \(holder)") }
        }
        // What only a stack, a thread-specific value, a task-local value or a malloc'd block holds
        // is reached; what the fixture leaked is not.
        for address in report.reachable.values.joined() {
            let result = try DumpCommandTests.run(["retainers", target, address, "--format", "json"])
            #expect(try json(result.output)["reachable"] as? Bool == true, "\(source): \(address) \(result.errors)")
        }
        for (type, addresses) in report.leaked {
            let result = try DumpCommandTests.run(["retainers", target, addresses[0]])
            #expect(result.status == 0)
            #expect(
                result.output.contains("\(type) \(addresses[0]) (")
                    && result.output.contains("no root reaches it: it is leaked (`typeinfo leaks` lists every allocation no root reaches)"),
                "\(source): \(result.output)")
        }
    }

    @Test(arguments: FixtureLinking.allCases)
    func pathsAreTheChainsTheFixtureBuiltByProcessAndFromItsCore(_ linking: FixtureLinking) throws {
        let fixture = try LiveFixtureProcess<Report>(module: "LiveLeaks", linking: linking)
        defer { fixture.finish() }
        let report = try fixture.readReport()
        #expect(report.chains.count == 9)
        try Self.check(String(fixture.processID), report, "process")
        try #require(CoreDump.gcore != nil, "gcore (gdb) is not installed: run Tools/setup")
        let core = try CoreDump.make(of: fixture.processID)
        try Self.check(core, report, "core")
    }

    @Test func textNamesEachHolderAndTypeGroupsByShape() throws {
        let fixture = try LiveFixtureProcess<Report>(module: "LiveLeaks", linking: .dynamic)
        defer { fixture.finish() }
        let report = try fixture.readReport()
        let global = try #require(report.reachable["global"]?.first)
        let text = try DumpCommandTests.run(["retainers", String(fixture.processID), global, "--paths", "5"])
        #expect(text.status == 0, "\(text.errors)")
        #expect(text.output.hasPrefix("process \(fixture.processID) (LiveLeaks"))
        #expect(text.output.contains("read while paused (stopped for "))
        #expect(text.output.contains("  global LiveLeaks.heldByGlobal : Swift.Array<LiveLeaks.HeldByGlobal> (LiveLeaks"))
        #expect(text.output.contains("Swift._ContiguousArrayStorage<Swift.AnyObject> 0x"))
        #expect(text.output.contains(" element 0\n  → LiveLeaks.HeldByGlobal \(global)\n"), "\(text.output)")
        // A path through an unowned reference says so.
        let alsoWeak = try #require(report.reachable["weakly-also"]?.first)
        let unowned = try DumpCommandTests.run(["retainers", String(fixture.processID), alsoWeak, "--paths", "10"])
        #expect(unowned.output.contains("\n  LiveLeaks.UnownedHolder 0x"), "\(unowned.output)")
        #expect(unowned.output.contains(" .target (unowned)\n  → LiveLeaks.WeaklyAlsoHeld \(alsoWeak)\n"), "\(unowned.output)")
        #expect(!unowned.output.contains("WeakOnly"))
        let actor = report.reachable["actor"] ?? []
        let grouped = try DumpCommandTests.run(["retainers", String(fixture.processID), "--type", "LiveLeaks.HeldByActor"])
        #expect(grouped.status == 0, "\(grouped.errors)")
        #expect(grouped.output.contains("\(actor.count) objects of type LiveLeaks.HeldByActor: \(actor.count) reached from a root, 0 not"))
        #expect(
            grouped.output.contains(
                "\(actor.count) held through global LiveLeaks.ledger : LiveLeaks.Ledger (LiveLeaks"),
            "\(grouped.output)")
        #expect(grouped.output.contains(") → LiveLeaks.Ledger.entries"))
        // An object its owner keeps through a global, which a thread's frame also holds (a
        // shorter path), is grouped through the owner: the root that lasts.
        let owned = try DumpCommandTests.run(["retainers", String(fixture.processID), "--type", "LiveLeaks.OwnedAlsoOnStack"])
        #expect(owned.status == 0, "\(owned.errors)")
        #expect(owned.output.contains("\n1 held through global LiveLeaks.owner : LiveLeaks.Owner (LiveLeaks"), "\(owned.output)")
        #expect(owned.output.contains(") → LiveLeaks.Owner.items"), "\(owned.output)")
        let ownedAddress = try #require(report.chains.first { $0.value.first == "global LiveLeaks.owner" }?.key)
        let ownedPaths = try DumpCommandTests.run(["retainers", String(fixture.processID), ownedAddress, "--paths", "2"])
        #expect(
            ownedPaths.output.contains("path 1 (1 step):\n  stack of thread ")
                || ownedPaths.output.contains("path 1 (1 step):\n  register "),
            "the shortest path is the frame's: \(ownedPaths.output)")
        let leakedType = try DumpCommandTests.run([
            "retainers", String(fixture.processID), "--type", "LiveLeaks.CycleA", "--format", "json",
        ])
        #expect(try Self.json(leakedType.output)["unreachable"] as? Int == report.leaked["LiveLeaks.CycleA"]?.count)
    }

    @Test func anAddressNoAllocationStartsAtIsOneLineNamingWhatHoldsIt() throws {
        let fixture = try LiveFixtureProcess<Report>(module: "LiveLeaks", linking: .dynamic)
        defer { fixture.finish() }
        let report = try fixture.readReport()
        let global = try #require(report.reachable["global"]?.first.map(LeaksCommandTests.hex))
        let inside = "0x" + String(global + 8, radix: 16)
        let interior = try DumpCommandTests.run(["retainers", String(fixture.processID), inside])
        #expect(interior.status == 2)
        #expect(interior.output.isEmpty)
        let prefix =
            "typeinfo: process \(fixture.processID): no allocation starts at \(inside): it lies 8 bytes into the allocation at 0x\(String(global, radix: 16)) ("
        #expect(interior.errors.hasPrefix(prefix), "\(interior.errors)")
        #expect(
            interior.errors.hasSuffix("usable bytes); give an allocation's start (`typeinfo heap --addresses N` lists objects by type)\n"))
        let nowhere = try DumpCommandTests.run(["retainers", String(fixture.processID), "0x10"])
        #expect(nowhere.status == 2)
        #expect(
            nowhere.errors
                == "typeinfo: process \(fixture.processID): no allocation starts at 0x10, and it lies in none of the heap's live allocations; give an allocation's start (`typeinfo heap --addresses N` lists objects by type)\n"
        )
        let neither = try DumpCommandTests.run(["retainers", String(fixture.processID)])
        #expect(neither.status != 0)
        #expect(neither.errors.contains("give an allocation's address, or --type T"), "\(neither.errors)")
        let notHex = try DumpCommandTests.run(["retainers", String(fixture.processID), "0xzz"])
        #expect(notHex.errors.contains("'0xzz' is not a hexadecimal address (0x…)"), "\(notHex.errors)")
    }

    /// `leaks` groups the leaked objects that hold each other into cycles, by shape: the two-class
    /// cycles, the weakly held ones and the owners whose closures capture them, the closure named.
    @Test(arguments: FixtureLinking.allCases)
    func leaksShowsEachCycleShapeOnceWithItsCount(_ linking: FixtureLinking) throws {
        let fixture = try LiveFixtureProcess<Report>(module: "LiveLeaks", linking: linking)
        defer { fixture.finish() }
        let report = try fixture.readReport()
        let result = try DumpCommandTests.run(["leaks", String(fixture.processID), "--format", "json"])
        #expect(result.status == 0, "\(result.errors)")
        let cycles = try #require(try Self.json(result.output)["cycles"] as? [[String: Any]])
        func count(_ shape: [String]) -> Int? { cycles.first { $0["shape"] as? [String] == shape }?["count"] as? Int }
        #expect(
            count(["LiveLeaks.CycleA.other", "LiveLeaks.CycleB.other", "LiveLeaks.CycleA"]) == report.leaked["LiveLeaks.CycleA"]?.count)
        #expect(
            count(["LiveLeaks.WeaklyHeldCycle.other", "LiveLeaks.WeaklyHeldCycle.other", "LiveLeaks.WeaklyHeldCycle"])
                == (report.leaked["LiveLeaks.WeaklyHeldCycle"]?.count ?? 0) / 2)
        // The cycles whose array's bytes also hold the partner's address are drawn through
        // their references.
        #expect(
            count(["LiveLeaks.BytesCycleA.other", "LiveLeaks.BytesCycleB.other", "LiveLeaks.BytesCycleA"])
                == report.leaked["LiveLeaks.BytesCycleA"]?.count, "\(cycles)")
        #expect(!cycles.contains { ($0["shape"] as? [String] ?? []).joined().contains("Swift.UInt8") }, "\(cycles)")
        let owners = cycles.filter { ($0["shape"] as? [String])?.first == "LiveLeaks.ClosureOwner.callback" }
        #expect(owners.count == 1, "\(cycles)")
        let shape = owners.first?["shape"] as? [String] ?? []
        #expect(owners.first?["count"] as? Int == report.leaked["LiveLeaks.ClosureOwner"]?.count)
        #expect(shape.count == 3 && shape.last == "LiveLeaks.ClosureOwner")
        #expect(shape.count == 3 && shape[1].hasPrefix("closure context or box (2 captured values, of "), "\(shape)")
        #expect(shape.count == 3 && shape[1].contains("closure #1 () -> () in LiveLeaks.ClosureOwner.init(tag: Swift.Int)"), "\(shape)")
        // The picture draws each cycle's holders, escaped for XML, with the arrow that closes it.
        let picture = try DumpCommandTests.run(["leaks", String(fixture.processID), "--format", "svg"])
        #expect(picture.status == 0, "\(picture.errors)")
        let titles = try #require(SVGTitles.parse(picture.output), "the picture is well-formed XML")
        for holder in shape.dropLast() { #expect(titles.contains(holder), "\(holder)") }
        #expect(picture.output.components(separatedBy: "class=\"points-back\"").count - 1 == cycles.count)
        let text = try DumpCommandTests.run(["leaks", String(fixture.processID)])
        #expect(
            text.output.contains(
                "\n\(report.leaked["LiveLeaks.CycleA"]?.count ?? 0) cycles: LiveLeaks.CycleA.other → LiveLeaks.CycleB.other → LiveLeaks.CycleA\n"
            ), "\(text.output)")
    }
}

/// The `<title>` texts of an SVG document, which parses as XML (nil when it does not).
final class SVGTitles: NSObject, XMLParserDelegate {
    private var titles: [String] = []
    private var text: String?

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        text = name == "title" ? "" : nil
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text? += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "title", let text { titles.append(text) }
        text = nil
    }

    static func parse(_ svg: String) -> [String]? {
        let collector = SVGTitles()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = collector
        return parser.parse() ? collector.titles : nil
    }
}
