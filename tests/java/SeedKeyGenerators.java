// Java transcriptions of the seed row-key generators that hbtab simulate reproduces.
// HashRowKeyGenerator and PartitionRowKeyManager follow seed 000's code; the others follow
// the designs of seeds 003 and 004 as hbtab defines them (see man/hbtab-simulate.1).
// Plain JDK only: Bytes.toBytes and MD5Hash.getMD5AsHex are written out below.
//
// Regenerate the expected values in tests/unit/test_keygen.c with:
//   javac -d /tmp/skg SeedKeyGenerators.java && java -cp /tmp/skg SeedKeyGenerators SEED START
// It prints, per generator, the first three keys (toStringBinary) and the MD5 of the first
// 1,000,000 keys concatenated.
import java.security.MessageDigest;
import java.util.Random;

public class SeedKeyGenerators {
    interface RowKeyGenerator {
        byte[] nextId();
    }

    static byte[] toBytes(long v) {
        byte[] b = new byte[8];
        for (int i = 7; i >= 0; i--) {
            b[i] = (byte) v;
            v >>>= 8;
        }
        return b;
    }

    static byte[] toBytes(int v) {
        return new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
    }

    static byte[] toBytes(short v) {
        return new byte[] {(byte) (v >>> 8), (byte) v};
    }

    static byte[] add(byte[] a, byte[] b) {
        byte[] r = new byte[a.length + b.length];
        System.arraycopy(a, 0, r, 0, a.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    static byte[] copy(byte[] a, int off, int len) {
        byte[] r = new byte[len];
        System.arraycopy(a, off, r, 0, len);
        return r;
    }

    static byte[] md5(byte[] in) {
        try {
            return MessageDigest.getInstance("MD5").digest(in);
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    static String md5Hex(byte[] in) {
        StringBuilder sb = new StringBuilder();
        for (byte x : md5(in)) sb.append(String.format("%02x", x & 0xff));
        return sb.toString();
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

    // seed 000 HashRowKeyGenerator, with the seed and start time made explicit
    static class Hash implements RowKeyGenerator {
        long currentId = 1;
        long currentTime;
        Random random;
        Hash(long seed, long start) { random = new Random(seed); currentTime = start; }
        public byte[] nextId() {
            try {
                currentTime += random.nextInt(1000);
                byte[] lowT = copy(toBytes(currentTime), 4, 4);
                byte[] lowU = copy(toBytes(currentId), 4, 4);
                return add(md5Hex(add(lowU, lowT)).substring(0, 8).getBytes(), toBytes(currentId));
            } finally {
                currentId++;
            }
        }
    }

    // seed 000 PartitionRowKeyManager
    static class Partition implements RowKeyGenerator {
        long currentId = 1;
        int partition;
        Partition(int n) { partition = n; }
        public byte[] nextId() {
            try {
                long partitionId = currentId % partition;
                return add(toBytes(partitionId), toBytes(currentId));
            } finally {
                currentId++;
            }
        }
    }

    static class Sequential implements RowKeyGenerator {
        long currentId = 1;
        public byte[] nextId() { return toBytes(currentId++); }
    }

    static class Hex8 implements RowKeyGenerator {
        Random random;
        Hex8(long seed) { random = new Random(seed); }
        public byte[] nextId() {
            byte[] b = new byte[8];
            for (int i = 0; i < 8; i++) b[i] = (byte) "0123456789abcdef".charAt(random.nextInt(16));
            return b;
        }
    }

    static byte[] prefix(long v, int buckets) {
        return buckets <= 256 ? new byte[] {(byte) v} : toBytes((short) v);
    }

    // seed 004 scheme 1: a hash of the id modulo B as the prefix
    static class Salt implements RowKeyGenerator {
        long currentId = 1;
        int buckets;
        Salt(int b) { buckets = b; }
        public byte[] nextId() {
            try {
                byte[] d = md5(toBytes(currentId));
                long h = ((d[0] & 0xffL) << 24) | ((d[1] & 0xffL) << 16) | ((d[2] & 0xffL) << 8)
                        | (d[3] & 0xffL);
                return add(prefix(h % buckets, buckets), toBytes(currentId));
            } finally {
                currentId++;
            }
        }
    }

    // seed 004 scheme 2: a counter modulo N as the prefix
    static class RoundRobin implements RowKeyGenerator {
        long currentId = 1;
        long counter = 0;
        int n;
        RoundRobin(int n) { this.n = n; }
        public byte[] nextId() {
            try {
                return add(prefix(counter++ % n, n), toBytes(currentId));
            } finally {
                currentId++;
            }
        }
    }

    // seed 003 transaction key: 2-byte hash field + 4-byte millisecond of the day
    static class Transaction implements RowKeyGenerator {
        long currentTime;
        Random random;
        Transaction(long seed, long start) { random = new Random(seed); currentTime = start; }
        public byte[] nextId() {
            currentTime += random.nextInt(4);
            int hash = random.nextInt(65536);
            return add(toBytes((short) hash), toBytes((int) Math.floorMod(currentTime, 86400000L)));
        }
    }

    // seed 003 statistics key: 4-byte sequence + 2-byte minute of the day
    static class Statistics implements RowKeyGenerator {
        long i = 0;
        long startMinute;
        int d;
        Statistics(int d, long start) { this.d = d; startMinute = Math.floorMod(start, 86400000L) / 60000; }
        public byte[] nextId() {
            try {
                int seq = (int) (i % d);
                long minute = (startMinute + i / d) % 1440;
                return add(toBytes(seq), toBytes((short) minute));
            } finally {
                i++;
            }
        }
    }

    static void report(String name, RowKeyGenerator g) throws Exception {
        MessageDigest all = MessageDigest.getInstance("MD5");
        StringBuilder first = new StringBuilder();
        for (int i = 0; i < 1000000; i++) {
            byte[] k = g.nextId();
            if (i < 3) first.append(' ').append(toStringBinary(k));
            all.update(k);
        }
        StringBuilder hex = new StringBuilder();
        for (byte x : all.digest()) hex.append(String.format("%02x", x & 0xff));
        System.out.println(name + first + " " + hex);
    }

    public static void main(String[] args) throws Exception {
        long seed = Long.parseLong(args[0]), start = Long.parseLong(args[1]);
        report("md5", new Hash(seed, start));
        report("partition:20", new Partition(20));
        report("partition:7", new Partition(7));
        report("sequential", new Sequential());
        report("hex8", new Hex8(seed));
        report("salt:16", new Salt(16));
        report("salt:1000", new Salt(1000));
        report("roundrobin:10", new RoundRobin(10));
        report("roundrobin:300", new RoundRobin(300));
        report("transaction", new Transaction(seed, start));
        report("statistics:1000", new Statistics(1000, start));
    }
}
