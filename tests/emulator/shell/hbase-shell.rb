#!/usr/bin/env ruby
# frozen_string_literal: false
#
# Stand-in for `hbase shell [-n] SCRIPT` used by hbtab's tests. Runs SCRIPT
# under plain Ruby with a prelude that defines the shell's `create` (and a few
# other commands) and sends the resulting table to the hbemu emulator's
# control channel (env HBEMU_CONTROL, e.g. http://127.0.0.1:PORT).
#
# Environment:
#   HBEMU_CONTROL       control URL of the emulator (required)
#   HBEMU_TBB_LEGACY=1  Bytes.toBytesBinary throws on a truncated \x escape
#                       (released HBase versions) instead of keeping it
#   HBEMU_SHELL_STRIP=1 SPLITS_FILE lines are `strip`ped (old shells), not `chomp`ed
#   HBEMU_SHELL_EXIT0=1 an error ends only the failing command; the script goes
#                       on and the exit status is 0 (like many real shells)
#   HBEMU_SHELL_MODERN_ERRORS=1  print "ERROR <class>: <message>" like recent
#                       non-interactive shells (default "ERROR: <message>")
#   HBEMU_SHELL_EXIT1=1 exit status 1 even after a clean run (HBase 2.4.8)
#   HBEMU_SHELL_HANG=1  never exit once the script has run (some builds of that time)
#   HBEMU_SHELL_DONE=F  make file F once the script has run (before the exit or the hang)
#   HBEMU_SHELL_RELEASE=R  the release whose output forms to speak (default 2.4, i.e.
#                       2.4.17): 2.0 .. 2.3 (-n errors reach JRuby's top level, B2), 2.4,
#                       2.5.8, 2.5.9, 2.6.0, 2.6.1, 3.0; a line alone (2.5, 2.6) is its newest
#                       release. list_snapshots has the TTL column from 2.5.9 and 2.6.1 on.
#   HBEMU_SHELL_NO_NATIVE=1  as a shell whose JRuby could not load its native support: IO#tty?
#                       answers true, so the formatter lays out for an 80-column terminal
#                       (list_snapshots wraps, "Took" is padded), jline's probe of the
#                       terminal leaves stty's complaint on stderr, and a script without
#                       `exit` ends in NotImplementedError (exit 1). Seen on 2.4.17.

require 'json'
require 'net/http'
require 'uri'
require 'base64'

module HBEmuShell
  # An error as the real shell would see it; jclass is the class name JRuby
  # would print (RuntimeError for messages translated by the shell).
  class ShellError < StandardError
    attr_reader :jclass

    def initialize(msg, jclass = 'RuntimeError')
      super(msg)
      @jclass = jclass
    end
  end

  HEX = ((0x30..0x39).to_a + (0x41..0x46).to_a).freeze

  # Bytes.toBytesBinary: walks UTF-16 code units; keeps the low 8 bits of each.
  def self.to_bytes_binary(str)
    s = str.to_s.dup
    s = s.force_encoding('UTF-8') unless s.encoding == Encoding::UTF_8
    s = s.scrub("\uFFFD")
    units = s.encode('UTF-16BE').unpack('n*')
    legacy = ENV['HBEMU_TBB_LEGACY'] == '1'
    out = []
    n = units.size
    i = 0
    while i < n
      ch = units[i]
      if ch == 0x5C && i + 1 < n && units[i + 1] == 0x78
        if i + 3 < n
          h1 = units[i + 2]
          h2 = units[i + 3]
          if HEX.include?(h1) && HEX.include?(h2)
            out << ((h1.chr.to_i(16) << 4) | h2.chr.to_i(16))
            i += 4
          else
            i += 1 # bogus escape: drop only the backslash
          end
          next
        elsif legacy
          idx = i + 2 < n ? i + 3 : i + 2
          raise ShellError.new("String index out of range: #{idx}",
                               'Java::JavaLang::StringIndexOutOfBoundsException')
        end
      end
      out << (ch & 0xFF)
      i += 1
    end
    out.pack('C*')
  end

  def self.control
    url = ENV['HBEMU_CONTROL']
    raise ShellError, 'HBEMU_CONTROL is not set (control URL of the emulator)' if url.nil? || url.empty?
    url.sub(%r{/+\z}, '')
  end

  def self.request(method, path, body = nil)
    uri = URI.parse(control + path)
    http = Net::HTTP.new(uri.host, uri.port)
    req = method == :post ? Net::HTTP::Post.new(uri.request_uri) : Net::HTTP::Get.new(uri.request_uri)
    if body
      req['Content-Type'] = 'application/json'
      req.body = JSON.generate(body)
    end
    res = http.request(req)
    data = res.body.nil? || res.body.empty? ? {} : JSON.parse(res.body)
    [res.code.to_i, data]
  rescue Errno::ECONNREFUSED, SocketError => e
    raise ShellError.new(e.message, 'Java::OrgApacheHadoopHbase::MasterNotRunningException')
  end

  def self.attr_value(v)
    case v
    when Hash then raise ShellError, "nested hash not allowed here: #{v.inspect}"
    when Array then v.map(&:to_s).join(',')
    else v.to_s
    end
  end

  def self.read_splits_file(file)
    raise ShellError, "Splits file #{file} doesn't exist" unless File.exist?(file)
    strip = ENV['HBEMU_SHELL_STRIP'] == '1'
    lines = []
    File.foreach(file, encoding: 'UTF-8') do |line|
      lines << (strip ? line.strip : line.chomp)
    end
    lines
  end

  def self.create(table, *args)
    raise ShellError, 'Table name must be of type String' unless table.is_a?(String)
    families = []
    attrs = {}
    splits = nil
    args.each do |arg|
      if arg.is_a?(String)
        families << { 'name' => arg, 'attrs' => {} }
      elsif arg.is_a?(Hash)
        h = arg.dup
        if h.key?('NAME')
          name = h.delete('NAME').to_s
          fattrs = {}
          h.each do |k, v|
            if %w[CONFIGURATION METADATA].include?(k.to_s) && v.is_a?(Hash)
              v.each { |k2, v2| fattrs[k2.to_s] = attr_value(v2) }
            else
              fattrs[k.to_s] = attr_value(v)
            end
          end
          families << { 'name' => name, 'attrs' => fattrs }
          next
        end
        if h.key?('SPLITS_FILE')
          file = h.delete('SPLITS_FILE').to_s
          h['SPLITS'] = read_splits_file(file)
          attrs['SPLITS_FILE'] = file
        end
        if h.key?('SPLITS')
          list = h.delete('SPLITS')
          raise ShellError, 'SPLITS must be an array of strings' unless list.is_a?(Array)
          splits = list.map { |x| to_bytes_binary(x.to_s) }
          h.delete('NUMREGIONS')
          h.delete('SPLITALGO')
        elsif h.key?('NUMREGIONS') || h.key?('SPLITALGO')
          raise ShellError, 'Number of regions must be specified' unless h.key?('NUMREGIONS')
          raise ShellError, 'Split algorithm must be specified' unless h.key?('SPLITALGO')
          raise ShellError, 'Number of regions must be greater than 1' unless h['NUMREGIONS'].to_i > 1
          raise ShellError, 'NUMREGIONS/SPLITALGO are not supported by the emulator shell'
        end
        h.each do |k, v|
          if %w[METADATA CONFIGURATION].include?(k.to_s) && v.is_a?(Hash)
            v.each { |k2, v2| attrs[k2.to_s] = v2.to_s }
          else
            attrs[k.to_s] = attr_value(v)
          end
        end
      else
        raise ShellError, "#{arg.class} of #{arg.inspect} is not of Hash or String type"
      end
    end
    raise ShellError.new('Table must have at least one column family', 'ArgumentError') if families.empty?
    body = { 'table' => table, 'families' => families, 'attrs' => attrs,
             'splits' => (splits || []).map { |b| Base64.strict_encode64(b) } }
    code, data = request(:post, '/control/create', body)
    case code
    when 201
      puts "Created table #{table}"
    when 409
      raise ShellError, "Table already exists: #{table}!"
    when 404
      raise ShellError, "Unknown namespace #{data['error']}!" if data['type'] == 'NamespaceNotFoundException'
      raise ShellError, data['error'].to_s
    else
      jclass = data['type'] == 'IllegalArgumentException' ? 'Java::JavaLang::IllegalArgumentException' : 'RuntimeError'
      raise ShellError.new(data['error'].to_s, jclass)
    end
  end

  # Admin.enableTable / disableTable / truncateTable through the emulator's control channel.
  def self.table_call(verb, table, body = {})
    code, data = request(:post, "/control/#{verb}", { 'table' => table }.merge(body))
    return if code == 200
    # translate_hbase_exceptions (shell/commands.rb) turns these into RuntimeErrors
    case data['type']
    when 'TableNotFoundException' then raise ShellError, "Unknown table #{table}!"
    when 'TableNotEnabledException' then raise ShellError, "Table #{table} is disabled!"
    when 'TableNotDisabledException' then raise ShellError, "Table #{table} should be disabled!"
    else raise ShellError, data['error'].to_s
    end
  end

  def self.table_state(table)
    name = table.start_with?('default:') ? table.sub('default:', '') : table
    t = tables.find { |x| x['name'] == name }
    raise ShellError, "Unknown table #{table}!" unless t
    t['enabled']
  end

  # Admin.mergeRegionsAsync / splitRegion through the emulator's control channel. A Java
  # exception from the master reaches the shell as its own class.
  def self.region_call(verb, body)
    code, data = request(:post, "/control/#{verb}", body)
    return data if code == 200
    # split of a name that is no region (one merged or split away): admin.rb's split rescues
    # the IllegalArgumentException of Admin.splitRegion and tries the name as a table's,
    # whose TableNotFoundException the shell translates (2.4.17 hbase/admin.rb split,
    # shell/commands.rb translate_hbase_exceptions)
    if verb == 'split-region' && data['type'] == 'TableNotFoundException'
      raise ShellError, "Unknown table #{body['region']}!"
    end
    jclass = { 'MergeRegionException' => 'Java::OrgApacheHadoopHbaseExceptions::MergeRegionException',
               'UnknownRegionException' => 'Java::OrgApacheHadoopHbase::UnknownRegionException',
               'TableNotFoundException' => 'Java::OrgApacheHadoopHbase::TableNotFoundException' }
    raise ShellError.new(data['error'].to_s, jclass.fetch(data['type'].to_s, 'Java::OrgApacheHadoopHbase::DoNotRetryIOException'))
  end

  def self.tables
    code, data = request(:get, '/control/state')
    raise ShellError, data['error'].to_s unless code == 200
    data['tables']
  end
end

# ---- the prelude: shell commands and constants --------------------------------

# Shell constants (NAME, VERSIONS, SPLITS, ...) are strings equal to their names.
class Object
  def self.const_missing(name)
    return name.to_s if name.to_s =~ /\A[A-Z][A-Z0-9_]*\z/
    super
  end
end

$hbemu_took = nil

# A command that fails still prints its time, without ending the line, so its error follows
# on the same line ("Took 0.5186 secondsERROR RuntimeError: ...", as HBase's 2.4.17 shell).
def hbemu_timed
  t0 = Time.now
  HBEmuShell.terminal_probe
  begin
    r = yield
  rescue StandardError
    print HBEmuShell.formatter.took(Time.now - t0) unless ENV['HBEMU_SHELL_EXIT0'] == '1'
    raise
  end
  puts HBEmuShell.formatter.took(Time.now - t0)
  r
end

# How an error is reported:
# * default: "ERROR <class>: <message>" on stdout (Shell.exception_handler, which wraps
#   -n scripts from HBase 2.4.0 on; seen from the 2.4.17 shell), exit status 1;
# * HBEMU_SHELL_PLAIN_ERRORS=1: "ERROR: <message>", exit status 1 (the interactive
#   form; HBEMU_SHELL_MODERN_ERRORS=1 is the default's old name);
# * HBEMU_SHELL_EXIT0=1: like older shells, the command prints "ERROR: <message>"
#   and the script goes on; the exit status is 0.
def hbemu_command(name)
  yield
rescue HBEmuShell::ShellError, ArgumentError, TypeError => e
  raise unless ENV['HBEMU_SHELL_EXIT0'] == '1'
  puts
  puts "ERROR: #{e.message}"
  puts
  puts "For usage try 'help \"#{name}\"'"
  puts
  nil
end

def create(table, *args)
  hbemu_command('create') do
    hbemu_timed { HBEmuShell.create(table, *args) }
    puts "=> Hbase::Table - #{table}"
  end
  nil
end

# enable / disable (hbase/admin.rb, 2.4): "Table T does not exist." for a missing table (an
# ArgumentError); a table already in the state asked for is left alone, without an error.
def enable(table)
  hbemu_command('enable') do
    hbemu_timed do
      raise ArgumentError, "Table #{table} does not exist." unless exists?(table)
      HBEmuShell.table_call('enable', table) unless HBEmuShell.table_state(table)
    end
  end
  nil
end

def disable(table)
  hbemu_command('disable') do
    hbemu_timed do
      raise ArgumentError, "Table #{table} does not exist." unless exists?(table)
      HBEmuShell.table_call('disable', table) if HBEmuShell.table_state(table)
    end
  end
  nil
end

# truncate_preserve (hbase/admin.rb, 2.4): disables an enabled table itself, then
# Admin.truncateTable(table, true); the table ends enabled with the same split points.
def truncate_preserve(table)
  hbemu_command('truncate_preserve') do
    hbemu_timed do
      puts "Truncating '#{table}' table (it may take a while):"
      if HBEmuShell.table_state(table)
        puts 'Disabling table...'
        HBEmuShell.table_call('disable', table)
      end
      puts 'Truncating table...'
      HBEmuShell.table_call('truncate', table, 'preserve' => true)
    end
  end
  nil
end

# merge_region (2.4's shell/commands/merge_region.rb): two or more regions, by encoded or
# full name, a trailing true/false is force; the names go to the master as given.
def merge_region(*args)
  args = args.flatten.compact
  raise ArgumentError, 'Must pass at least 2 regions to merge' unless args.length > 1
  force = false
  force = args.pop if args.length > 2 && [true, false].include?(args[-1])
  hbemu_command('merge_region') do
    hbemu_timed { HBEmuShell.region_call('merge-regions', { 'regions' => args.map(&:to_s), 'force' => force }) }
  end
  nil
end

# split (hbase/admin.rb): the split point is split_point.to_java_bytes, the Ruby string's own
# bytes (no toBytesBinary), so binary keys come as "\xHH" escapes in a double-quoted string.
def split(table_or_region_name, split_point = nil)
  raise HBEmuShell::ShellError, 'the emulator shell splits at a given key only' if split_point.nil?
  hbemu_command('split') do
    hbemu_timed do
      HBEmuShell.region_call('split-region', { 'region' => table_or_region_name.to_s,
                                               'key' => Base64.strict_encode64(split_point.to_s.b) })
    end
  end
  nil
end

# major_compact (hbase/admin.rb): asynchronous in HBase; here at once, with the
# CatalogJanitor's clean-up of merge qualifiers. catalogjanitor_run has nothing left to do.
def major_compact(table_or_region_name, family = nil)
  hbemu_command('major_compact') do
    hbemu_timed { HBEmuShell.region_call('compact', { 'region' => table_or_region_name.to_s, 'family' => family }) }
  end
  nil
end

def catalogjanitor_run
  hbemu_timed { nil }
  nil
end

def exists?(table)
  name = table.start_with?('default:') ? table.sub('default:', '') : table
  HBEmuShell.tables.any? { |t| t['name'] == name }
end

def exists(table)
  hbemu_timed { puts "Table #{table} #{exists?(table) ? 'does exist' : 'does not exist'}" }
  exists?(table)
end

def list(regex = '.*')
  names = HBEmuShell.tables.map { |t| t['name'] }.select { |n| n =~ Regexp.new(regex) }
  puts 'TABLE'
  names.each { |n| puts n }
  puts "#{names.size} row(s)"
  names
end

def describe(table)
  name = table.start_with?('default:') ? table.sub('default:', '') : table
  t = HBEmuShell.tables.find { |x| x['name'] == name }
  raise HBEmuShell::ShellError, "Unknown table #{table}!" unless t
  puts "Table #{name} is #{t['enabled'] ? 'ENABLED' : 'DISABLED'}"
  puts name + (t['attrs'].empty? ? '' : ', {TABLE_ATTRIBUTES => {' +
       t['attrs'].map { |k, v| "#{k} => '#{v}'" }.join(', ') + '}}')
  puts 'COLUMN FAMILIES DESCRIPTION'
  t['families'].each do |f, a|
    puts "{NAME => '#{f}', " + a.map { |k, v| "#{k} => '#{v}'" }.join(', ') + '}'
  end
  nil
end

# ---- snapshots (2.4's shell/commands/snapshot.rb, list_snapshots.rb, clone_snapshot.rb) ---

module HBEmuShell
  # A master exception reaches the shell as RemoteWithExtrasException naming it; the shell's
  # own checks (an illegal name) as the Java exception itself.
  def self.snapshot_call(verb, body)
    code, data = request(:post, "/control/#{verb}", body)
    return data if [200, 201].include?(code)
    case data['type']
    when 'IllegalArgumentException'
      raise ShellError.new(data['error'].to_s, 'Java::JavaLang::IllegalArgumentException')
    when 'TableExistsException'
      raise ShellError, "Table already exists: #{body['table']}!"
    when 'NamespaceNotFoundException'
      raise ShellError, "Unknown namespace #{body['table'].split(':').first}!"
    else
      raise ShellError.new("org.apache.hadoop.hbase.snapshot.#{data['type']}: #{data['error']}",
                           'Java::OrgApacheHadoopHbaseIpc::RemoteWithExtrasException')
    end
  end
end

# ---- releases, the formatter, the objects a script reaches -------------------------

module HBEmuShell
  # HBEMU_SHELL_RELEASE as [major, minor, patch]; a line alone is its newest release.
  def self.release
    v = (ENV['HBEMU_SHELL_RELEASE'] || '2.4').split('.').map(&:to_i)
    v << 99 while v.size < 3
    v
  end

  # 2.0 .. 2.3 load the -n script unguarded (bin/hirb.rb): an error reaches JRuby's top level.
  def self.top_level_errors?
    (release <=> [2, 4, 0]) < 0
  end

  # list_snapshots' TTL column (HBASE-28614): 2.5.9+ and 2.6.1+, not 2.6.0.
  def self.ttl_column?
    v = release
    ((v <=> [2, 5, 9]) >= 0 && (v <=> [2, 6, 0]) < 0) || (v <=> [2, 6, 1]) >= 0
  end

  def self.no_native?
    ENV['HBEMU_SHELL_NO_NATIVE'] == '1'
  end

  # What SnapshotDescriptionUtils.isExpiredSnapshot decides, and the column list_snapshots
  # prints from it.
  def self.ttl_info(s)
    ttl = s.getTtl
    return 'FOREVER' if ttl.zero?
    expired = s.getCreationTime.positive? && ttl.positive? &&
              s.getCreationTime + ttl * 1000 < (Time.now.to_f * 1000).to_i
    expired ? "#{ttl} (Expired) " : ttl.to_s
  end

  # jline's terminal runs stty each time a command's formatter asks for the width
  # (formatter.rb refresh_width): on /dev/tty when the process has a controlling terminal,
  # setting its modes, which stops a process outside the terminal's foreground process group
  # (SIGTTOU) until someone continues it; else on stdin, which stty refuses when it is not a
  # terminal.
  def self.terminal_probe
    return unless no_native?
    tty = begin
      File.open('/dev/tty', 'r+')
    rescue SystemCallError
      nil
    end
    if tty
      modes = IO.popen(%w[stty -g], in: tty, err: File::NULL, &:read).to_s.strip
      system('stty', modes, in: tty, err: File::NULL) unless modes.empty?
      tty.close
    elsif !$stdin.tty?
      warn "stty: 'standard input': Inappropriate ioctl for device"
    end
  end

  # Shell::Formatter::Base (formatter.rb, the same file in 2.0 .. 3.0): a width of 0 unless
  # $stdout.tty?, then the terminal's (80 when jline cannot tell); two-column rows give the
  # first column a quarter of it and cut longer text into lines of that width.
  class Formatter
    def initialize
      @width = HBEmuShell.no_native? ? 80 : 0
    end

    def header(args)
      row(args, false)
    end

    def row(args, inset = true)
      w1 = w2 = 0
      unless @width.zero?
        w1 = @width / 4
        w2 = @width - w1 - 2
      end
      s1 = split(w1, args[0].to_s)
      s2 = split(w2, args[1].to_s)
      [s1.size, s2.size].max.times do |i|
        line = inset ? ' ' : ''
        line += output(w1, s1[i])
        line += ' ' unless inset
        line += ' ' + output(w2, s2[i])
        puts line
      end
    end

    def footer(count)
      puts format('%d row(s)', count)
    end

    def took(seconds)
      output(@width, format('Took %.4f seconds', seconds))
    end

    def split(width, str)
      return [str] if width.zero?
      (0...str.length).step(width).map { |i| str[i, width] }
    end

    def output(width, str)
      str = '' if str.nil?
      width.zero? || width == str.length ? str : format('%-*s', width, str)
    end
  end

  def self.formatter
    Formatter.new
  end

  # org.apache.hadoop.hbase.client.SnapshotDescription, the getters a script may call.
  class SnapshotDescription
    def initialize(h)
      @h = h
    end

    def getName
      @h['name']
    end

    def getTableNameAsString
      @h['table']
    end

    def getCreationTime
      @h['created'].to_i
    end

    def getTtl
      @h['ttl'].to_i
    end
  end

  # java.util.regex.Pattern's matches(), for what a shell script passes: \Q...\E quoting
  # and plain regular expressions (Ruby's syntax stands in for Java's).
  def self.java_regex(pattern)
    src = pattern.to_s.gsub(/\\Q(.*?)(?:\\E|\z)/m) { Regexp.escape(Regexp.last_match(1)) }
    Regexp.new("\\A(?:#{src})\\z")
  end

  # Hbase::Admin (hbase/admin.rb): list_snapshot(regex) is Admin.listSnapshots(Pattern).
  class Admin
    def list_snapshot(regex = '.*')
      re = HBEmuShell.java_regex(regex)
      HBEmuShell.snapshot_call('list-snapshots', 'regex' => '.*')
                .map { |h| SnapshotDescription.new(h) }.select { |s| re.match?(s.getName) }
    end
  end

  # Shell::Shell (shell.rb): @shell in a script's binding (2.4+, export_all) or main's
  # (2.0 .. 2.3, bin/hirb.rb).
  class Shell
    def admin
      @admin ||= Admin.new
    end
  end

  def self.admin
    Admin.new
  end

  # The Java packages a script names: java.util.regex.Pattern.
  module JavaRegexPattern
    def self.quote(s)
      "\\Q#{s}\\E"
    end

    def self.compile(s)
      s
    end
  end

  JAVA = Struct.new(:util).new(Struct.new(:regex).new(Struct.new(:Pattern).new(JavaRegexPattern)))
end

def java
  HBEmuShell::JAVA
end

# snapshot 'T', 'NAME' [, {TTL => SECONDS}]: prints only its time.
def snapshot(table, name, opts = {})
  hbemu_command('snapshot') do
    hbemu_timed do
      HBEmuShell.snapshot_call('snapshot', 'table' => table, 'name' => name,
                                           'ttl' => (opts['TTL'] || 0).to_i)
    end
  end
  nil
end

# list_snapshots [REGEX] (shell/commands/list_snapshots.rb): the header, one row per snapshot,
# "N row(s)", through the formatter (formatter.rb). Until 2.5.8 and in 2.6.0 a row is
# "NAME TABLE (TIME)"; from 2.5.9 and 2.6.1 on (HBASE-28614) the second column adds the TTL:
# FOREVER for 0, the seconds, or "N (Expired) " once creation + TTL has passed.
def list_snapshots(regex = '.*')
  list = nil
  hbemu_command('list_snapshots') do
    hbemu_timed do
      f = HBEmuShell.formatter
      ttl = HBEmuShell.ttl_column?
      list = HBEmuShell.admin.list_snapshot(regex)
      f.header(['SNAPSHOT', ttl ? 'TABLE + CREATION TIME + TTL(Sec)' : 'TABLE + CREATION TIME'])
      list.each do |s|
        info = "#{s.getTableNameAsString} (#{Time.at(s.getCreationTime / 1000)})"
        info += " #{HBEmuShell.ttl_info(s)}" if ttl
        f.row([s.getName, info])
      end
      f.footer(list.size)
    end
  end
  list ? list.map(&:getName) : []
end

# clone_snapshot 'NAME', 'T': a new table with the snapshot's schema, splits and rows.
def clone_snapshot(name, table)
  hbemu_command('clone_snapshot') do
    hbemu_timed { HBEmuShell.snapshot_call('clone-snapshot', 'name' => name, 'table' => table) }
  end
  nil
end

# ---- main ------------------------------------------------------------------------

def hbemu_main(argv)
  args = argv.dup
  args.delete('-n')
  args.delete('--noninteractive')
  script = args.shift
  src = script ? File.read(script, encoding: 'UTF-8') : $stdin.read
  @shell = HBEmuShell::Shell.new
  begin
    eval(src, TOPLEVEL_BINDING, script || '-') # rubocop:disable Security/Eval
  rescue SystemExit => e
    # the script's own `exit`: a clean end unless it passed a status
    return hbemu_clean_end(e.status)
  rescue HBEmuShell::ShellError, ArgumentError, NameError, TypeError, RuntimeError => e
    jclass = e.respond_to?(:jclass) ? e.jclass : e.class.to_s
    if ENV['HBEMU_SHELL_PLAIN_ERRORS'] == '1'
      puts "ERROR: #{e.message}"
    elsif HBEmuShell.top_level_errors? && ENV['HBEMU_SHELL_EXIT0'] != '1'
      return hbemu_top_level_error(jclass, e, script)
    else
      # Shell.exception_handler (shell.rb, 2.4+): a note on stderr for a Java exception
      warn 'java exception' if jclass.start_with?('Java::')
      puts "ERROR #{jclass}: #{e.message}"
    end
    $stdout.flush
    hbemu_hang
    exit(ENV['HBEMU_SHELL_EXIT0'] == '1' ? 0 : 1)
  end
  hbemu_no_exit_end
end

# 2.0 .. 2.3 with -n: the command raises its root cause (shell/commands.rb command_safe),
# load(script) in bin/hirb.rb does not rescue it, JRuby reports it on stderr in its own form
# ("Class: message", then "  METHOD at FILE:LINE" frames; TraceType Format.JRUBY) and exits 1.
def hbemu_top_level_error(jclass, err, script)
  $stdout.flush
  line = (err.backtrace || []).map { |b| b[/\A#{Regexp.escape(script.to_s)}:(\d+)/, 1] }.compact.first
  $stderr.puts "#{jclass}: #{err.message}"
  $stderr.puts "  command_safe at /usr/lib/hbase/lib/ruby/shell/commands.rb:49"
  $stderr.puts "        <main> at #{script}:#{line || 1}"
  $stderr.puts "          load at org/jruby/RubyKernel.java:1009"
  $stderr.puts "        <main> at /usr/lib/hbase/bin/hirb.rb:186"
  $stderr.flush
  hbemu_hang
  1
end

# A script that did not `exit`: 2.4+ then start a second IRB on stdin (jar-bootstrap.rb).
# Without JRuby's native support that IRB cannot stat stdin: NotImplementedError at JRuby's top
# level, exit 1 (seen on 2.4.17, jar-bootstrap.rb:223).
def hbemu_no_exit_end
  return hbemu_clean_end(0) unless HBEmuShell.no_native? && !HBEmuShell.top_level_errors?
  $stdout.flush
  HBEmuShell.terminal_probe
  $stderr.puts 'NotImplementedError: fstat unimplemented unsupported or native support failed ' \
               'to load'
  $stderr.puts '  initialize at org/jruby/RubyIO.java:1015'
  $stderr.puts '  initialize at uri:classloader:/irb/hirb.rb:50'
  $stderr.puts '      <main> at classpath:/jar-bootstrap.rb:223'
  hbemu_hang
  1
end

def hbemu_clean_end(status)
  $stdout.flush
  hbemu_hang
  status.zero? && ENV['HBEMU_SHELL_EXIT1'] == '1' ? 1 : status
end

# A shell that does not exit after the script (the JVM stays up): sleep until killed.
# HBEMU_SHELL_DONE=FILE: FILE is made once the script has run (clean or failed), before the
# exit or the hang, so that a test knows the script was not cut short.
def hbemu_hang
  done = ENV['HBEMU_SHELL_DONE']
  File.write(done, "done\n") if done && !done.empty?
  sleep while ENV['HBEMU_SHELL_HANG'] == '1'
end

exit(hbemu_main(ARGV)) if $PROGRAM_NAME == __FILE__
