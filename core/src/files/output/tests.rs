use super::*;

fn scratch(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("walkthrough-output-{}-{test}", std::process::id()));
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn an_output_that_is_an_input_is_refused_and_the_input_kept() {
    let d = scratch("input");
    let map = d.join("map.obj");
    fs::write(&map, "v 0 0 0\n").unwrap();
    let e = PartialFile::create(&map, std::slice::from_ref(&map)).unwrap_err();
    assert!(matches!(e, OutputError::IsInput { .. }), "{e}");
    assert!(
        e.to_string()
            .ends_with("which this run reads; write to another file")
    );
    // Another spelling of the same file is the same file.
    let other = d.join(".").join("map.obj");
    assert!(check_output(&other, std::slice::from_ref(&map)).is_err());
    assert_eq!(fs::read_to_string(&map).unwrap(), "v 0 0 0\n");
    assert!(!partial_path(&map).exists());
}

#[test]
fn a_directory_or_a_fifo_is_not_written_to() {
    let d = scratch("kinds");
    let e = check_output(&d, &[]).unwrap_err().to_string();
    assert!(e.contains("is not a regular file (a directory)"), "{e}");
    let fifo = d.join("pipe");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        let e = check_output(&fifo, &[]).unwrap_err().to_string();
        assert!(e.contains("(a pipe, device or socket)"), "{e}");
    }
}

#[test]
fn a_partial_file_replaces_its_target_only_when_committed() {
    let d = scratch("partial");
    let target = d.join("trace.csv");
    fs::write(&target, "old\n").unwrap();
    let mut f = PartialFile::create(&target, &[]).unwrap();
    f.write_all(b"new\n").unwrap();
    f.flush().unwrap();
    assert_eq!(fs::read_to_string(&target).unwrap(), "old\n");
    assert_eq!(
        fs::read_to_string(d.join("trace.csv.partial")).unwrap(),
        "new\n"
    );
    f.commit().unwrap();
    assert_eq!(fs::read_to_string(&target).unwrap(), "new\n");
    assert!(!d.join("trace.csv.partial").exists());
}

/// A `.partial` name that was a link (symbolic or hard) to
/// another file got the trace written into that file. It is replaced, not opened.
#[test]
fn a_partial_name_that_is_a_link_is_replaced_not_written_through() {
    let d = scratch("partial-link");
    let target = d.join("trace.csv");
    let (soft, hard) = (d.join("soft.obj"), d.join("hard.obj"));
    fs::write(&soft, "v 1 2 3\n").unwrap();
    fs::write(&hard, "v 4 5 6\n").unwrap();
    let partial = partial_path(&target);
    let soft_link = |a: &Path, b: &Path| std::os::unix::fs::symlink(a, b);
    let hard_link = |a: &Path, b: &Path| fs::hard_link(a, b);
    type Link = dyn Fn(&Path, &Path) -> io::Result<()>;
    let links: [(&PathBuf, &Link); 2] = [(&soft, &soft_link), (&hard, &hard_link)];
    for (victim, link) in links {
        link(victim, &partial).unwrap();
        check_writable(&target, &[]).unwrap();
        let mut f = PartialFile::create(&target, &[]).unwrap();
        f.write_all(b"rows\n").unwrap();
        f.commit().unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "rows\n");
        assert!(fs::symlink_metadata(&target).unwrap().is_file());
    }
    assert_eq!(fs::read_to_string(&soft).unwrap(), "v 1 2 3\n");
    assert_eq!(fs::read_to_string(&hard).unwrap(), "v 4 5 6\n");
}

/// A valid 250-byte trace name failed ("File name too long"):
/// its `.partial` name went past 255 bytes. It gets a shorter one, and is written.
#[test]
fn a_name_too_long_for_its_partial_name_is_still_written() {
    let d = scratch("long-name");
    let target = d.join(format!("{}.csv", "t".repeat(246)));
    assert_eq!(target.file_name().unwrap().len(), 250);
    let partial = partial_path(&target);
    assert!(
        partial.file_name().unwrap().len() <= NAME_MAX,
        "{partial:?}"
    );
    assert_ne!(
        partial,
        partial_path(&d.join(format!("{}.csv", "u".repeat(246))))
    );
    check_writable(&target, &[]).unwrap();
    let mut f = PartialFile::create(&target, &[]).unwrap();
    f.write_all(b"rows\n").unwrap();
    f.commit().unwrap();
    assert_eq!(fs::read_to_string(&target).unwrap(), "rows\n");
    assert!(!partial.exists());
}

/// `sim --trace X --decals-out X` wrote both through one
/// `.partial` file, and X was left a mix of both with its old contents lost.
#[test]
fn two_outputs_naming_one_file_are_refused() {
    let d = scratch("twice");
    let (a, b) = (d.join("a.csv"), d.join("b.csv"));
    assert!(check_distinct(&[("--trace", Some(&a)), ("--decals-out", Some(&b))]).is_ok());
    // Not there yet, spelt two ways; and there, through a link.
    let again = d.join(".").join("a.csv");
    let e = check_distinct(&[("--trace", Some(&a)), ("--decals-out", Some(&again))])
        .unwrap_err()
        .to_string();
    assert!(
        e.ends_with("is both --trace and --decals-out; give each output its own file"),
        "{e}"
    );
    fs::write(&a, "old\n").unwrap();
    std::os::unix::fs::symlink(&a, &b).unwrap();
    let e = check_distinct(&[
        ("--record", Some(&b)),
        ("--bench-out", None),
        ("--trace", Some(&d)),
        ("--screenshot", Some(&a)),
    ])
    .unwrap_err()
    .to_string();
    assert!(e.contains("is both --record and --screenshot"), "{e}");
    assert_eq!(fs::read_to_string(&a).unwrap(), "old\n");
}

/// A write that failed at the end (a full disk, a file that
/// cannot be replaced) left a truncated `.partial` file. A commit that fails takes it
/// away and leaves the old file as it was; so does a file dropped unfinished.
#[test]
fn a_failed_write_removes_its_partial_file() {
    let d = scratch("failed");
    let target = d.join("trace.csv");
    fs::write(&target, "old\n").unwrap();
    let mut f = PartialFile::create(&target, &[]).unwrap();
    f.write_all(b"new\n").unwrap();
    // The rename cannot happen: the target became a folder that is not empty.
    fs::remove_file(&target).unwrap();
    fs::create_dir_all(target.join("inside")).unwrap();
    assert!(f.commit().is_err());
    assert!(!partial_path(&target).exists());
    assert!(target.join("inside").is_dir());
    fs::remove_dir_all(&target).unwrap();
    fs::write(&target, "old\n").unwrap();
    let mut f = PartialFile::create(&target, &[]).unwrap();
    f.write_all(b"half").unwrap();
    drop(f);
    assert!(!partial_path(&target).exists());
    assert_eq!(fs::read_to_string(&target).unwrap(), "old\n");
}

/// The program's own files are inputs too: an output onto the settings file (even
/// one not made yet, or by another spelling) or into the cache folder is refused.
#[test]
fn an_output_onto_the_settings_file_or_into_the_cache_folder_is_refused() {
    let d = scratch("own");
    let settings = d.join("config").join("settings.toml");
    let cache = d.join("cache");
    fs::create_dir_all(settings.parent().unwrap()).unwrap();
    fs::create_dir_all(&cache).unwrap();
    let inputs = [settings.clone(), cache.clone()];
    let e = check_output(&d.join("config/../config/settings.toml"), &inputs).unwrap_err();
    assert!(matches!(e, OutputError::IsInput { .. }), "{e}");
    fs::write(&settings, "[settings]\n").unwrap();
    let e = check_output(&settings, &inputs).unwrap_err();
    assert!(matches!(e, OutputError::IsInput { .. }), "{e}");
    let e = check_writable(&cache.join("trace.csv"), &inputs).unwrap_err();
    assert!(
        e.to_string()
            .ends_with("a folder this program keeps and reads; write somewhere else"),
        "{e}"
    );
    assert!(check_writable(&d.join("trace.csv"), &inputs).is_ok());
    assert!(!d.join("trace.csv.partial").exists());
    let e = check_writable(&d.join("missing/trace.csv"), &inputs).unwrap_err();
    assert!(e.to_string().ends_with("does not exist"), "{e}");
    assert_eq!(fs::read_to_string(&settings).unwrap(), "[settings]\n");
}

#[test]
fn a_file_not_to_replace_is_never_replaced() {
    let d = scratch("new");
    let p = d.join("shot.png");
    write_file(&p, b"one", &[], Replace::No).unwrap();
    let e = write_file(&p, b"two", &[], Replace::No).unwrap_err();
    assert!(matches!(e, OutputError::Exists { .. }));
    assert_eq!(fs::read(&p).unwrap(), b"one");
    write_file(&p, b"three", &[], Replace::Yes).unwrap();
    assert_eq!(fs::read(&p).unwrap(), b"three");
}
