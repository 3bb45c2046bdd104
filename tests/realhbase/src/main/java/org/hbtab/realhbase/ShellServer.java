package org.hbtab.realhbase;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * HBase's own JRuby shell, kept warm: one JVM that runs each call's shell in a JRuby runtime of
 * its own, as {@code org.jruby.JarBootstrapMain} would in a JVM of its own.
 *
 * <p>A shell JVM spends about 5 processor-seconds starting (the JVM, JRuby, and the shell's
 * Ruby, compiled again at every call); a runtime in a warm JVM about one. The program is the
 * release's own {@code jar-bootstrap.rb}, its commands and its formatter: the output is the
 * shell's. Three things a process gets from the operating system are given here: standard
 * input, output and error are the call's (framed over the socket, {@code shell-client}); they
 * are not terminals, as a pipe is not (without this, JRuby calls these streams terminals, and
 * the formatter would pad every table to 80 columns, which the shell run by hbtab never does);
 * and the shell's connection is closed when its runtime ends, as a process's end closes it.
 * A client that goes away (hbtab killed its shell) interrupts its run.
 *
 * <p>{@code main(shellArgs...)}: the shell's own arguments (the cluster's {@code -D} settings),
 * before each call's. The ready line on stdout: {@code HBEMU-SHELL {"shell_port": N, "pid": P}}.
 * {@code -Dhbtab.watch.pid=PID}: the JVM ends with that process.
 *
 * <p>Frames, client to server: an int count, then each argument (int length, UTF-8); then
 * standard input as (int length, bytes) frames, length 0 at its end. Server to client: a type
 * byte ({@code O} stdout, {@code E} stderr, {@code X} exit status in decimal), an int length,
 * the bytes.
 */
public final class ShellServer {
  /** Runs before the release's jar-bootstrap.rb in the call's runtime (see the class note). */
  private static final String BOOT =
      "[$stdin, $stdout, $stderr].each { |io| def io.tty?; false; end; def io.isatty; false; end }\n"
          + "at_exit { begin; @hbase.shutdown if defined?(@hbase) && @hbase; "
          + "rescue Exception; end }\n"
          + "load 'classpath:/jar-bootstrap.rb'\n";

  private ShellServer() {}

  public static void main(String[] shellArgs) throws Exception {
    String watch = System.getProperty("hbtab.watch.pid");
    if (watch != null) {
      ProcessHandle.of(Long.parseLong(watch))
          .orElseThrow(() -> new IllegalArgumentException("no process " + watch))
          .onExit()
          .thenRun(() -> Runtime.getRuntime().halt(0));
    }
    ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    System.out.println(
        "HBEMU-SHELL {\"shell_port\": "
            + listener.getLocalPort()
            + ", \"pid\": "
            + ProcessHandle.current().pid()
            + "}");
    System.out.flush();
    while (true) {
      Socket s = listener.accept();
      Thread t = new Thread(() -> serve(s, shellArgs), "shell-call");
      t.setDaemon(true);
      t.start();
    }
  }

  private static void frame(OutputStream o, int type, byte[] b, int off, int len)
      throws IOException {
    synchronized (o) {
      o.write(type);
      o.write(len >>> 24);
      o.write(len >>> 16);
      o.write(len >>> 8);
      o.write(len);
      o.write(b, off, len);
      o.flush();
    }
  }

  /** One of the call's output streams, framed. */
  private static final class Framed extends OutputStream {
    private final OutputStream out;
    private final int type;

    Framed(OutputStream out, int type) {
      this.out = out;
      this.type = type;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      if (len > 0) {
        frame(out, type, b, off, len);
      }
    }
  }

  private static void serve(Socket s, String[] shellArgs) {
    try (s) {
      DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
      OutputStream out = new BufferedOutputStream(s.getOutputStream());
      List<String> argv = new ArrayList<>(Arrays.asList("-e", BOOT, "--"));
      argv.addAll(Arrays.asList(shellArgs));
      int n = in.readInt();
      for (int i = 0; i < n; i++) {
        byte[] b = new byte[in.readInt()];
        in.readFully(b);
        argv.add(new String(b, StandardCharsets.UTF_8));
      }
      PipedInputStream stdin = new PipedInputStream(1 << 16);
      PipedOutputStream feed = new PipedOutputStream(stdin);
      Thread runner = Thread.currentThread();
      Thread reader =
          new Thread(
              () -> {
                try {
                  for (int len; (len = in.readInt()) > 0; ) {
                    byte[] b = new byte[len];
                    in.readFully(b);
                    feed.write(b);
                    feed.flush();
                  }
                  feed.close();
                  // nothing more comes: the read ends when the client goes away
                  in.read();
                } catch (IOException e) {
                  // the client went away
                }
                runner.interrupt();
              },
              "shell-stdin");
      reader.setDaemon(true);
      reader.start();
      PrintStream o = new PrintStream(new Framed(out, 'O'), true);
      PrintStream e = new PrintStream(new Framed(out, 'E'), true);
      int status = run(argv, stdin, o, e);
      o.flush();
      e.flush();
      byte[] b = Integer.toString(status).getBytes(StandardCharsets.US_ASCII);
      frame(out, 'X', b, 0, b.length);
    } catch (IOException e) {
      // the client went away: nothing to answer
    }
  }

  /** org.jruby.Main's run in a runtime of its own; its exit status. */
  private static int run(List<String> argv, InputStream stdin, PrintStream o, PrintStream e) {
    try {
      Class<?> configClass = Class.forName("org.jruby.RubyInstanceConfig");
      Object config = configClass.getConstructor().newInstance();
      configClass.getMethod("setInput", InputStream.class).invoke(config, stdin);
      configClass.getMethod("setOutput", PrintStream.class).invoke(config, o);
      configClass.getMethod("setError", PrintStream.class).invoke(config, e);
      configClass.getMethod("setHardExit", boolean.class).invoke(config, false);
      Class<?> mainClass = Class.forName("org.jruby.Main");
      Object main = mainClass.getConstructor(configClass).newInstance(config);
      Object status =
          mainClass
              .getMethod("run", String[].class)
              .invoke(main, (Object) argv.toArray(new String[0]));
      return (Integer) status.getClass().getMethod("getStatus").invoke(status);
    } catch (InvocationTargetException x) {
      x.getCause().printStackTrace(e);
      return 1;
    } catch (ReflectiveOperationException x) {
      x.printStackTrace(e);
      return 1;
    }
  }
}
