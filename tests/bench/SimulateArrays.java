// The seed 000 design as a careful Java programmer would write it, the second JVM baseline of
// bench_simulate.sh: the same keys and splits as SimulateBaseline.java, but with one reused
// MessageDigest and key buffer, the 1,000,000-key sample in a byte[][] sorted by
// Arrays.sort(Arrays::compareUnsigned) (Bytes.compareTo's order) and deduplicated in place,
// and each write routed by Arrays.binarySearch over the split keys' first 8 bytes as longs,
// comparing whole keys only when those are equal. No boxed keys, no TreeSet, no TreeMap.
// Usage: java SimulateArrays REGIONS WRITES [SEED [START_MS]]
// Prints "split TSB" per split key, "count N" per region, then "elapsed_ms MS" (without JVM
// start-up) on standard error.
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Random;

public class SimulateArrays {
    static final byte[] HEX = "0123456789abcdef".getBytes();

    // seed 000 HashRowKeyGenerator: md5hex(toBytes((int) id) ++ toBytes((int) time))[0..8)
    // ++ toBytes(id), written into a caller's 16-byte row
    static final class Keys {
        long id = 1, time;
        final Random random;
        final MessageDigest md;
        final byte[] in = new byte[8];

        Keys(long seed, long start) throws Exception {
            random = new Random(seed);
            time = start;
            md = MessageDigest.getInstance("MD5");
        }

        void next(byte[] row) {
            time += random.nextInt(1000);
            int u = (int) id, t = (int) time;
            in[0] = (byte) (u >>> 24);
            in[1] = (byte) (u >>> 16);
            in[2] = (byte) (u >>> 8);
            in[3] = (byte) u;
            in[4] = (byte) (t >>> 24);
            in[5] = (byte) (t >>> 16);
            in[6] = (byte) (t >>> 8);
            in[7] = (byte) t;
            byte[] d = md.digest(in);
            for (int i = 0; i < 4; i++) {
                row[2 * i] = HEX[(d[i] >> 4) & 15];
                row[2 * i + 1] = HEX[d[i] & 15];
            }
            long v = id;
            for (int i = 15; i >= 8; i--, v >>>= 8) row[i] = (byte) v;
            id++;
        }
    }

    static long prefix(byte[] k) {
        long v = 0;
        for (int i = 0; i < 8; i++) v = v << 8 | (i < k.length ? k[i] & 0xff : 0);
        return v;
    }

    static String toStringBinary(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (byte x : b) {
            int c = x & 0xff;
            if (c >= ' ' && c <= '~' && c != '\\') sb.append((char) c);
            else sb.append(String.format("\\x%02X", c));
        }
        return sb.toString();
    }

    public static void main(String[] args) throws Exception {
        int regions = Integer.parseInt(args[0]);
        long writes = Long.parseLong(args[1]);
        long seed = args.length > 2 ? Long.parseLong(args[2]) : 0;
        long start = args.length > 3 ? Long.parseLong(args[3]) : 0;
        long t0 = System.nanoTime();

        // HashChoreWoker(1000000, regions).calcSplitKeys(): sorted distinct sample, every
        // (sample/regions)-th key after the first
        int baseRecord = 1000000, splitKeysBase = baseRecord / regions;
        Keys sampler = new Keys(seed, start);
        byte[][] rows = new byte[baseRecord][];
        for (int i = 0; i < baseRecord; i++) sampler.next(rows[i] = new byte[16]);
        Arrays.sort(rows, Arrays::compareUnsigned);
        byte[][] splitKeys = new byte[regions - 1][];
        int distinct = 0, index = 0;
        for (int i = 0; i < baseRecord && index < regions - 1; i++) {
            if (i > 0 && Arrays.equals(rows[i - 1], rows[i])) continue;
            if (distinct != 0 && distinct % splitKeysBase == 0) splitKeys[index++] = rows[i];
            distinct++;
        }
        rows = null;

        // the simulator: the region is the number of split keys <= the row. The first 8
        // bytes as unsigned longs (flipped into signed order) decide unless they are equal.
        long[] pfx = new long[splitKeys.length];
        for (int i = 0; i < pfx.length; i++) pfx[i] = prefix(splitKeys[i]) ^ Long.MIN_VALUE;
        long[] counts = new long[regions];
        Keys writer = new Keys(seed, start);
        byte[] row = new byte[16];
        for (long w = 0; w < writes; w++) {
            writer.next(row);
            long kp = prefix(row) ^ Long.MIN_VALUE;
            int i = Arrays.binarySearch(pfx, kp);
            if (i < 0) {
                i = -i - 1;
            } else {
                while (i > 0 && pfx[i - 1] == kp) i--;
                while (i < pfx.length && pfx[i] == kp
                        && Arrays.compareUnsigned(splitKeys[i], row) <= 0) i++;
            }
            counts[i]++;
        }
        long elapsed = (System.nanoTime() - t0) / 1000000;

        StringBuilder out = new StringBuilder();
        for (byte[] k : splitKeys) out.append("split ").append(toStringBinary(k)).append('\n');
        for (long c : counts) out.append("count ").append(c).append('\n');
        System.out.print(out);
        System.err.println("elapsed_ms " + elapsed);
    }
}
