// The seed 000 region-helper design in plain Java, the baseline for bench_simulate.sh:
// HashChoreWoker samples 1,000,000 keys of HashRowKeyGenerator into a TreeSet and takes every
// (sample/regions)-th key as a split; a simulator then routes each write with a TreeMap floor
// lookup and counts writes per region. Both generators start from Random(seed) and time start.
// Usage: java SimulateBaseline REGIONS WRITES [SEED [START_MS]]
// Prints "split TSB" per split key, "count N" per region, then "elapsed_ms MS" (without JVM
// start-up) on standard error.
import java.security.MessageDigest;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;

public class SimulateBaseline {
    static final Comparator<byte[]> BYTES_COMPARATOR = (a, b) -> {
        int n = Math.min(a.length, b.length);
        for (int i = 0; i < n; i++) {
            int x = a[i] & 0xff, y = b[i] & 0xff;
            if (x != y) return x - y;
        }
        return a.length - b.length;
    };

    static byte[] toBytes(long v) {
        byte[] b = new byte[8];
        for (int i = 7; i >= 0; i--) {
            b[i] = (byte) v;
            v >>>= 8;
        }
        return b;
    }

    static final char[] HEX = "0123456789abcdef".toCharArray();

    // seed 000 HashRowKeyGenerator with MD5Hash.getMD5AsHex written out
    static class HashRowKeyGenerator {
        long currentId = 1;
        long currentTime;
        Random random;
        MessageDigest md;

        HashRowKeyGenerator(long seed, long start) throws Exception {
            random = new Random(seed);
            currentTime = start;
            md = MessageDigest.getInstance("MD5");
        }

        byte[] nextId() {
            try {
                currentTime += random.nextInt(1000);
                byte[] t = toBytes(currentTime), u = toBytes(currentId), in = new byte[8];
                System.arraycopy(u, 4, in, 0, 4);
                System.arraycopy(t, 4, in, 4, 4);
                byte[] d = md.digest(in);
                StringBuilder hex = new StringBuilder(32);
                for (byte x : d) hex.append(HEX[(x >> 4) & 15]).append(HEX[x & 15]);
                byte[] prefix = hex.substring(0, 8).getBytes();
                byte[] row = new byte[16];
                System.arraycopy(prefix, 0, row, 0, 8);
                System.arraycopy(u, 0, row, 8, 8);
                return row;
            } finally {
                currentId++;
            }
        }
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

        // HashChoreWoker(1000000, regions).calcSplitKeys()
        int baseRecord = 1000000, splitKeysBase = baseRecord / regions;
        byte[][] splitKeys = new byte[regions - 1][];
        HashRowKeyGenerator sampler = new HashRowKeyGenerator(seed, start);
        TreeSet<byte[]> rows = new TreeSet<>(BYTES_COMPARATOR);
        for (int i = 0; i < baseRecord; i++) rows.add(sampler.nextId());
        int pointer = 0, index = 0;
        Iterator<byte[]> it = rows.iterator();
        while (it.hasNext()) {
            byte[] row = it.next();
            it.remove();
            if (pointer != 0 && pointer % splitKeysBase == 0 && index < regions - 1)
                splitKeys[index++] = row;
            pointer++;
        }

        // the simulator: region start key -> index, floor lookup per write
        TreeMap<byte[], Integer> starts = new TreeMap<>(BYTES_COMPARATOR);
        starts.put(new byte[0], 0);
        for (int i = 0; i < splitKeys.length; i++) starts.put(splitKeys[i], i + 1);
        long[] counts = new long[regions];
        HashRowKeyGenerator writer = new HashRowKeyGenerator(seed, start);
        for (long w = 0; w < writes; w++) {
            Map.Entry<byte[], Integer> e = starts.floorEntry(writer.nextId());
            counts[e.getValue()]++;
        }
        long elapsed = (System.nanoTime() - t0) / 1000000;

        StringBuilder out = new StringBuilder();
        for (byte[] k : splitKeys) out.append("split ").append(toStringBinary(k)).append('\n');
        for (long c : counts) out.append("count ").append(c).append('\n');
        System.out.print(out);
        System.err.println("elapsed_ms " + elapsed);
    }
}
