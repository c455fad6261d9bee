/// Where in a heap's sorted addresses the allocations of each page of its address space begin:
/// what turns the marking's lookup of every scanned word (which allocation does it point into?)
/// from a binary search of millions of entries, most of them cache misses, into a table read and
/// a search of the few allocations of one page.
///
/// The addresses are split into clusters where they lie more than ``clusterGap`` apart (a heap's
/// arenas and mmapped chunks lie far from one another), each with a table of the first position
/// at or after each of its pages. A cluster's pages are made larger until its table has at most
/// two entries per allocation of the cluster, so that the index never outgrows the addresses.
struct AllocationPageIndex {
    private struct Cluster {
        /// The cluster's first and last addresses.
        var lowest: UInt64
        var highest: UInt64
        /// The bits above the low parts that every address of the cluster has (its window).
        var window: UInt64
        /// The first page's address, and the log2 of the page size.
        var base: UInt64
        var shift: UInt64
        /// The positions (in ``HeapAddresses``) the cluster's addresses occupy.
        var first: Int
        var end: Int
        /// Where the cluster's entries start in ``starts``, and how many pages it has.
        var table: Int
        var pages: Int
    }

    private var clusters: [Cluster] = []
    /// Per page of each cluster, the first position whose address is at or above the page's
    /// start; one more entry after each cluster's last page (its end).
    private var starts: [UInt32] = []

    /// Addresses closer than this are one cluster.
    static let clusterGap: UInt64 = 64 << 20
    static let pageShift: UInt64 = 12

    init(_ addresses: HeapAddresses) {
        guard addresses.count < Int(UInt32.max) else { return }
        var first = 0
        while first < addresses.count {
            var end = first + 1
            let segment = addresses.segment(holding: first)
            let segmentEnd = addresses.end(of: segment)
            // A cluster stays in one window of ``HeapAddresses``, so that its lookups compare
            // the 4-byte low parts alone.
            addresses.lows.withUnsafeBufferPointer { lows in
                // Within the window the low parts' differences are the addresses'.
                while end < segmentEnd, UInt64(lows[end] - lows[end - 1]) << 3 <= Self.clusterGap { end += 1 }
            }
            add(addresses, first: first, end: end)
            first = end
        }
    }

    private mutating func add(_ addresses: HeapAddresses, first: Int, end: Int) {
        let (lowest, highest) = (addresses[first], addresses[end - 1])
        var shift = Self.pageShift
        while ((highest - ((lowest >> shift) << shift)) >> shift) + 1 > UInt64(max(64, 2 * (end - first))) { shift += 1 }
        let base = (lowest >> shift) << shift
        let pages = Int(((highest - base) >> shift) + 1)
        let table = starts.count
        starts.reserveCapacity(starts.count + pages + 1)
        var position = first
        // Within the cluster's window: the low parts compare as the addresses do.
        addresses.lows.withUnsafeBufferPointer { lows in
            for page in 0..<pages {
                let pageStart = base + (UInt64(page) << shift)
                let key = pageStart < lowest ? 0 : UInt32(truncatingIfNeeded: pageStart >> 3)
                while position < end, lows[position] < key { position += 1 }
                starts.append(UInt32(position))
            }
        }
        starts.append(UInt32(end))
        clusters.append(
            Cluster(
                lowest: lowest, highest: highest,
                window: addresses.segments[addresses.segment(holding: first)].high << HeapAddresses.windowShift,
                base: base, shift: shift, first: first, end: end, table: table, pages: pages))
    }

    /// The first position of `addresses` whose address is above `address`, as
    /// ``HeapAddresses/firstPosition(above:)`` finds it.
    @inline(__always)
    func firstPosition(above address: UInt64, in addresses: HeapAddresses) -> Int {
        // Few clusters: a linear walk to the first that ends at or above the address.
        var index = 0
        while index < clusters.count, clusters[index].highest <= address { index += 1 }
        guard index < clusters.count else { return addresses.count }
        let cluster = clusters[index]
        // Below its first address: every address of the cluster is above. Otherwise the address
        // lies in the cluster's window, between its first and last addresses.
        guard address >= cluster.lowest else { return cluster.first }
        let page = Int((address - cluster.base) >> cluster.shift)
        var low = Int(starts[cluster.table + page])
        var high = Int(starts[cluster.table + page + 1])
        // Within one window: compare the low parts, as HeapAddresses keeps them.
        let key = UInt32(truncatingIfNeeded: address >> 3)
        addresses.lows.withUnsafeBufferPointer { lows in
            while low < high {
                let middle = (low + high) / 2
                if lows[middle] <= key { low = middle + 1 } else { high = middle }
            }
        }
        return low
    }

    /// The allocation whose header, bytes or end `address` is at, as
    /// ``Marker/allocation(containing:addresses:sizes:)`` finds it; within a cluster, addresses are
    /// made from the low parts and the cluster's window, with no search of the windows.
    @inline(__always)
    func allocation(containing address: UInt64, addresses: HeapAddresses, sizes: HeapSizes) -> Int? {
        var index = 0
        while index < clusters.count, clusters[index].highest < address { index += 1 }
        guard index < clusters.count, address >= clusters[index].lowest else {
            // Past every cluster's last allocation, or in a gap between clusters: rare, answered
            // the general way.
            return Marker.allocation(containing: address, addresses: addresses, sizes: sizes)
        }
        let cluster = clusters[index]
        let page = Int((address - cluster.base) >> cluster.shift)
        var low = Int(starts[cluster.table + page])
        var high = Int(starts[cluster.table + page + 1])
        let key = UInt32(truncatingIfNeeded: address >> 3)
        return addresses.lows.withUnsafeBufferPointer { lows in
            while low < high {
                let middle = (low + high) / 2
                if lows[middle] <= key { low = middle + 1 } else { high = middle }
            }
            // `low` is the first position above the address: the cluster's first is not.
            if low < cluster.end {
                if (cluster.window | UInt64(lows[low]) << 3) - 16 <= address { return low }
            } else if low < lows.count, addresses[low] - 16 <= address {
                return low
            }
            let previous = low - 1
            return address - (cluster.window | UInt64(lows[previous]) << 3) <= sizes[previous] ? previous : nil
        }
    }
}

extension HeapAddresses {
    /// The highest end (address plus size) of any allocation, or 0: one pass over the low parts,
    /// window by window.
    func highestEnd(sizes: HeapSizes) -> UInt64 {
        var highest: UInt64 = 0
        for (segment, part) in segments.enumerated() {
            let window = part.high << Self.windowShift
            lows.withUnsafeBufferPointer { lows in
                for position in part.start..<end(of: segment) {
                    highest = Swift.max(highest, (window | UInt64(lows[position]) << 3) &+ sizes[position])
                }
            }
        }
        return highest
    }
}
