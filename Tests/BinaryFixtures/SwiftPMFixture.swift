import Foundation
import Synchronization

/// Fixture packages (`Fixtures/<Package>/Package.swift`, one executable product named like the
/// package) built exactly as users build servers: `swift build -c release`, plain or
/// `--static-swift-stdlib`, no other flags. SwiftPM's release link (`--gc-sections`) drops
/// symbols that a fixture compiled by hand keeps, so the live readers are tested on its output.
public enum SwiftPMFixture {
    /// The package's release product, built once per test process, package and linking.
    public static func product(package: String, linking: FixtureLinking) throws -> String {
        building.lock()
        defer { building.unlock() }
        let key = "\(package)-\(linking)"
        if let done = products.withLock({ $0[key] }) { return try done.get() }
        let result = Result<String, any Error> {
            let scratch = ScratchDirectory.path(named: "swiftpm-\(key)")
            let directory = FixtureToolchain.fixturesDirectory + "/" + package
            let flags = linking == .staticStdlib ? ["--static-swift-stdlib"] : []
            try FixtureToolchain.run(
                swift, ["build", "-c", "release"] + flags + ["--package-path", directory, "--scratch-path", scratch], in: directory)
            return scratch + "/release/" + package
        }
        products.withLock { $0[key] = result }
        return try result.get()
    }

    /// A copy of the package's release product with its symbol tables and debug information
    /// removed (`strip`, as a deployment may ship it), made once per test process: its
    /// descriptors are found only from the lists its Swift sections hold.
    public static func strippedProduct(package: String, linking: FixtureLinking) throws -> String {
        let product = try product(package: package, linking: linking)
        building.lock()
        defer { building.unlock() }
        let stripped = product + "-stripped"
        if FileManager.default.fileExists(atPath: stripped) { return stripped }
        _ = try FixtureToolchain.run("/usr/bin/strip", ["--strip-all", "-o", stripped + ".partial", product], in: NSTemporaryDirectory())
        try FileManager.default.moveItem(atPath: stripped + ".partial", toPath: stripped)
        return stripped
    }

    /// `swift` beside the compiler the fixtures use.
    static var swift: String {
        let compiler = FixtureToolchain.swiftc
        guard compiler.hasPrefix("/") else { return "swift" }
        return URL(fileURLWithPath: compiler).deletingLastPathComponent().appendingPathComponent("swift").path
    }
}

private let products = Mutex<[String: Result<String, any Error>]>([:])
private let building = NSLock()
