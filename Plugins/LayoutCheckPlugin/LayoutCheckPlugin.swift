import Foundation
import PackagePlugin

/// `swift package layout-check`: a layout regression test for a package's product, with nothing
/// else to install.
///
/// Builds the product in release (the layout users ship: the optimizer may fold stored `let`s
/// the debug build keeps), then runs `typeinfo check` against the committed snapshot, or
/// `typeinfo snapshot` with `--record`. The typeinfo tool itself is built from this package.
@main
struct LayoutCheckPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let request = try LayoutCheckRequest(arguments: arguments)
        if request.wantsHelp {
            print(LayoutCheckRequest.usage)
            return
        }
        let product = try request.product(in: context.package)
        let snapshot = request.snapshotPath ?? "layouts/\(product.name).json"
        let snapshotURL = URL(fileURLWithPath: snapshot, relativeTo: context.package.directoryURL).standardizedFileURL

        Diagnostics.remark("layout-check: building \(product.name) in release")
        var parameters = PackageManager.BuildParameters(configuration: .release)
        parameters.logging = .concise
        let build = try packageManager.build(.product(product.name), parameters: parameters)
        guard build.succeeded else {
            print(build.logText)
            throw LayoutCheckFailure("building \(product.name) in release failed (the build log is above)")
        }
        guard let binary = build.builtArtifacts.first(where: { $0.kind == .executable || $0.kind == .dynamicLibrary }) else {
            throw LayoutCheckFailure(
                "\(product.name) built no executable or shared library to read; make the library product `type: .dynamic`, or name an executable product with --product"
            )
        }

        let typeinfo = try context.tool(named: "typeinfo")
        let worker = try context.tool(named: "typeinfo-lowering")
        var command: [String]
        if request.record {
            try FileManager.default.createDirectory(at: snapshotURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            command = ["snapshot", binary.url.path, "--output", snapshotURL.path]
        } else {
            guard FileManager.default.fileExists(atPath: snapshotURL.path) else {
                throw LayoutCheckFailure(
                    "no snapshot at \(snapshot); record one with `swift package --allow-writing-to-package-directory layout-check --record`, then commit it"
                )
            }
            command = ["check", binary.url.path, "--against", snapshotURL.path]
        }
        // The worker built beside this typeinfo, named explicitly: the plugin's tools need not
        // sit in one directory.
        command += ["--lowering-worker", worker.url.path] + request.passThrough

        let process = Process()
        process.executableURL = typeinfo.url
        process.arguments = command
        try process.run()
        process.waitUntilExit()
        let status = process.terminationStatus
        guard process.terminationReason == .exit, status == 0 else {
            let what = request.record ? "typeinfo snapshot" : "typeinfo check"
            throw LayoutCheckFailure(
                request.record
                    ? "\(what) failed (exit status \(status))"
                    : "\(what) found layout changes against \(snapshot) (exit status \(status)); if they are intended, re-record with --record or accept them in \(Self.suppressionsName(of: snapshot))"
            )
        }
    }

    /// `NAME.suppressions` beside `NAME.json`, the file `typeinfo check` reads without being told.
    static func suppressionsName(of snapshot: String) -> String {
        (snapshot.hasSuffix(".json") ? String(snapshot.dropLast(5)) : snapshot) + ".suppressions"
    }
}

/// A failure the plugin reports as one line; `swift package` then exits non-zero.
struct LayoutCheckFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = "layout-check: " + description }
}

/// The plugin's own arguments; everything after `--` goes to `typeinfo check` or `snapshot`.
struct LayoutCheckRequest {
    var productName: String?
    var snapshotPath: String?
    var record = false
    var wantsHelp = false
    var passThrough: [String] = []

    static let usage = """
        USAGE: swift package layout-check [--product NAME] [--snapshot PATH] [--record] [-- TYPEINFO-OPTIONS...]

        Builds the product in release and checks its type layouts against a committed snapshot
        (typeinfo check); --record writes the snapshot instead (typeinfo snapshot), which needs
        `swift package --allow-writing-to-package-directory layout-check --record`.

        OPTIONS:
          --product NAME    the executable or dynamic library product to read (default: the
                            package's only such product)
          --snapshot PATH   the snapshot, relative to the package (default: layouts/PRODUCT.json);
                            accepted changes go in PATH without .json plus .suppressions
          --record          record the snapshot instead of checking against it
          -- ...            options for typeinfo: e.g. `-- --module MyLib` when recording,
                            `-- --format markdown --exit-status bits` when checking
        """

    init(arguments: [String]) throws {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--":
                passThrough = Array(rest)
                rest = []
            case "--record":
                record = true
            case "--help", "-h":
                wantsHelp = true
            case "--product", "--snapshot":
                guard let value = rest.popFirst() else { throw LayoutCheckFailure("\(argument) needs a value\n\n\(Self.usage)") }
                if argument == "--product" { productName = value } else { snapshotPath = value }
            default:
                throw LayoutCheckFailure("unknown argument '\(argument)'; options for typeinfo go after `--`\n\n\(Self.usage)")
            }
        }
    }

    /// The product named with `--product`, or the package's only executable or dynamic library.
    func product(in package: Package) throws -> any Product {
        let readable = package.products.filter { product in
            if product is ExecutableProduct { return true }
            if let library = product as? LibraryProduct, case .dynamic = library.kind { return true }
            return false
        }
        if let productName {
            guard let named = package.products.first(where: { $0.name == productName }) else {
                throw LayoutCheckFailure(
                    "no product named '\(productName)'; products: \(package.products.map(\.name).joined(separator: ", "))")
            }
            return named
        }
        guard readable.count == 1, let only = readable.first else {
            throw LayoutCheckFailure(
                readable.isEmpty
                    ? "\(package.displayName) has no executable or dynamic library product; add one, or name a product with --product"
                    : "\(package.displayName) has \(readable.count) products to read (\(readable.map(\.name).joined(separator: ", "))); pick one with --product"
            )
        }
        return only
    }
}
