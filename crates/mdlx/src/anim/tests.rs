//! Sampling rules, with values worked out by hand.

use super::math::{qaxis_angle, Quat};
use super::sample::{AnimTime, Clock, TrackValue};
use crate::model::{Interpolation, Key, Model, Sequence, Track};
use std::f32::consts::PI;

fn tkey<T: Copy>(time: i32, value: T, in_tan: T, out_tan: T) -> Key<T> {
    Key {
        time,
        value,
        in_tan,
        out_tan,
    }
}

fn track<T>(interpolation: Interpolation, keys: Vec<Key<T>>) -> Track<T> {
    Track {
        interpolation,
        global_sequence_id: -1,
        keys,
    }
}

fn seq(start: u32, end: u32, flags: u32) -> Sequence {
    Sequence {
        interval: [start, end],
        flags,
        ..Default::default()
    }
}

/// A model with the sequences [0, 1000] and [2000, 3000] (looping), [4000, 5000]
/// (non-looping) and the global sequences 1000 ms and 0 ms long.
fn model() -> Model {
    Model {
        sequences: vec![seq(0, 1000, 0), seq(2000, 3000, 0), seq(4000, 5000, 1)],
        global_sequences: vec![1000, 0],
        ..Default::default()
    }
}

/// Samples `t` in sequence `s` at `ms` after its start; the static value is NaN-free and
/// distinct (-1000) so a test sees when it applies.
fn at<T: TrackValue + Static>(m: &Model, t: &Track<T>, s: usize, ms: f64) -> T {
    Clock::new(m, AnimTime::new(Some(s), ms)).sample(Some(t), T::STATIC)
}

/// A static value no key in these tests uses.
trait Static {
    const STATIC: Self;
}
impl Static for f32 {
    const STATIC: f32 = -1000.0;
}
impl Static for [f32; 3] {
    const STATIC: [f32; 3] = [-1000.0; 3];
}
impl Static for [f32; 4] {
    const STATIC: [f32; 4] = [-1000.0; 4];
}
impl Static for u32 {
    const STATIC: u32 = 1000;
}

fn sample_or<T: TrackValue>(m: &Model, t: &Track<T>, time: AnimTime, static_value: T) -> T {
    Clock::new(m, time).sample(Some(t), static_value)
}

fn close(a: f32, b: f32) -> bool {
    (a - b).abs() < 1e-5
}

fn close_q(a: Quat, b: Quat) -> bool {
    // q and -q are the same rotation.
    let same = (0..4).all(|i| (a[i] - b[i]).abs() < 1e-5);
    let flipped = (0..4).all(|i| (a[i] + b[i]).abs() < 1e-5);
    same || flipped
}

fn deg(d: f32) -> f32 {
    d * PI / 180.0
}

#[test]
fn step_holds_the_earlier_key() {
    let m = model();
    let t = track(
        Interpolation::None,
        vec![Key::at(0, 1.0f32), Key::at(100, 3.0)],
    );
    assert_eq!(at(&m, &t, 0, 50.0), 1.0);
    assert_eq!(at(&m, &t, 0, 99.9), 1.0);
    assert_eq!(at(&m, &t, 0, 100.0), 3.0);
    assert_eq!(at(&m, &t, 0, 150.0), 3.0);
}

#[test]
fn linear_scalar_and_vector() {
    let m = model();
    let t = track(
        Interpolation::Linear,
        vec![Key::at(0, 1.0f32), Key::at(100, 3.0)],
    );
    assert!(close(at(&m, &t, 0, 25.0), 1.5));
    let v = track(
        Interpolation::Linear,
        vec![
            Key::at(0, [0.0f32, 10.0, -4.0]),
            Key::at(200, [2.0, 20.0, 4.0]),
        ],
    );
    let got = at(&m, &v, 0, 50.0); // a quarter of the way
    assert!(
        close(got[0], 0.5) && close(got[1], 12.5) && close(got[2], -2.0),
        "{got:?}"
    );
}

#[test]
fn hermite_scalar_by_hand() {
    // From 0 (leaving with slope 2) to 1 (arriving with slope 0) over 100 ms.
    // t = 0.5: h00 = 0.5, h10 = 0.125, h01 = 0.5, h11 = -0.125 -> 0.5 + 2 * 0.125 = 0.75.
    // t = 0.25: h10 = 0.140625, h01 = 0.15625 -> 0.15625 + 2 * 0.140625 = 0.4375.
    let m = model();
    let t = track(
        Interpolation::Hermite,
        vec![tkey(0, 0.0f32, 0.0, 2.0), tkey(100, 1.0, 0.0, 0.0)],
    );
    assert!(close(at(&m, &t, 0, 50.0), 0.75));
    assert!(close(at(&m, &t, 0, 25.0), 0.4375));
    assert!(close(at(&m, &t, 0, 0.0), 0.0) && close(at(&m, &t, 0, 100.0), 1.0));
}

#[test]
fn bezier_scalar_and_vector_by_hand() {
    // Control points 0, 1, 1, 0 at t = 0.5: 3 * 0.25 * 0.5 + 3 * 0.5 * 0.25 = 0.75.
    // At t = 0.25: 3 * 0.5625 * 0.25 + 3 * 0.75 * 0.0625 = 0.421875 + 0.140625 = 0.5625.
    let m = model();
    let t = track(
        Interpolation::Bezier,
        vec![tkey(0, 0.0f32, 0.0, 1.0), tkey(100, 0.0, 1.0, 0.0)],
    );
    assert!(close(at(&m, &t, 0, 50.0), 0.75));
    assert!(close(at(&m, &t, 0, 25.0), 0.5625));
    let v = track(
        Interpolation::Bezier,
        vec![
            tkey(0, [0.0f32, 0.0, 0.0], [0.0; 3], [1.0, 2.0, 0.0]),
            tkey(100, [0.0, 0.0, 0.0], [1.0, 2.0, 0.0], [0.0; 3]),
        ],
    );
    let got = at(&m, &v, 0, 50.0);
    assert!(
        close(got[0], 0.75) && close(got[1], 1.5) && close(got[2], 0.0),
        "{got:?}"
    );
}

#[test]
fn linear_rotation_is_spherical() {
    // Identity to 90 degrees about Z: halfway is 45 degrees about Z.
    let m = model();
    let q90 = qaxis_angle([0.0, 0.0, 1.0], deg(90.0));
    let t = track(
        Interpolation::Linear,
        vec![Key::at(0, [0.0f32, 0.0, 0.0, 1.0]), Key::at(100, q90)],
    );
    let got = at(&m, &t, 0, 50.0);
    assert!(
        close_q(got, [0.0, 0.0, 0.382_683_4, 0.923_879_5]),
        "{got:?}"
    );
    // A third of the way: 30 degrees (slerp is uniform in angle, a straight line is not).
    let got = at(&m, &t, 0, 100.0 / 3.0);
    assert!(
        close_q(got, qaxis_angle([0.0, 0.0, 1.0], deg(30.0))),
        "{got:?}"
    );
}

#[test]
fn rotations_near_a_half_turn_take_the_short_way() {
    let m = model();
    let id = [0.0f32, 0.0, 0.0, 1.0];
    // 179 degrees: halfway is 89.5 degrees the same way.
    let t = track(
        Interpolation::Linear,
        vec![
            Key::at(0, id),
            Key::at(100, qaxis_angle([0.0, 0.0, 1.0], deg(179.0))),
        ],
    );
    assert!(close_q(
        at(&m, &t, 0, 50.0),
        qaxis_angle([0.0, 0.0, 1.0], deg(89.5))
    ));
    // 181 degrees one way is 179 the other: halfway is 89.5 degrees backwards.
    let t = track(
        Interpolation::Linear,
        vec![
            Key::at(0, id),
            Key::at(100, qaxis_angle([0.0, 0.0, 1.0], deg(181.0))),
        ],
    );
    assert!(close_q(
        at(&m, &t, 0, 50.0),
        qaxis_angle([0.0, 0.0, 1.0], deg(-89.5))
    ));
}

#[test]
fn a_sign_flipped_key_is_the_same_rotation() {
    // q and -q: nothing turns between them.
    let m = model();
    let q = qaxis_angle([0.0, 1.0, 0.0], deg(60.0));
    let nq = q.map(|x| -x);
    let t = track(Interpolation::Linear, vec![Key::at(0, q), Key::at(100, nq)]);
    for ms in [10.0, 50.0, 90.0] {
        assert!(close_q(at(&m, &t, 0, ms), q));
    }
}

#[test]
fn spline_rotations_by_hand() {
    let m = model();
    let id = [0.0f32, 0.0, 0.0, 1.0];
    let qx90 = qaxis_angle([1.0, 0.0, 0.0], deg(90.0));
    // Tangents equal to the keys: squad is slerp.
    let q90 = qaxis_angle([0.0, 0.0, 1.0], deg(90.0));
    let t = track(
        Interpolation::Hermite,
        vec![tkey(0, id, id, id), tkey(100, q90, q90, q90)],
    );
    assert!(close_q(
        at(&m, &t, 0, 50.0),
        qaxis_angle([0.0, 0.0, 1.0], deg(45.0))
    ));
    // Keys both identity, tangents 90 degrees about X: at t = 0.5 the outer slerp gives
    // identity, the inner gives the 90-degree turn, and they blend with 2t(1-t) = 0.5:
    // 45 degrees about X. At t = 0.25 the weight is 0.375: 33.75 degrees.
    for kind in [Interpolation::Hermite, Interpolation::Bezier] {
        let t = track(kind, vec![tkey(0, id, id, qx90), tkey(100, id, qx90, id)]);
        assert!(close_q(
            at(&m, &t, 0, 50.0),
            qaxis_angle([1.0, 0.0, 0.0], deg(45.0))
        ));
        assert!(close_q(
            at(&m, &t, 0, 25.0),
            qaxis_angle([1.0, 0.0, 0.0], deg(33.75))
        ));
    }
}

#[test]
fn integer_tracks_step_whatever_the_interpolation() {
    let m = model();
    let t = track(
        Interpolation::Linear,
        vec![Key::at(0, 1u32), Key::at(100, 2)],
    );
    assert_eq!(at(&m, &t, 0, 50.0), 1);
    assert_eq!(at(&m, &t, 0, 100.0), 2);
}

#[test]
fn sequences_see_only_their_own_keys() {
    // Keys in sequence 0 [0, 1000] and sequence 1 [2000, 3000].
    let m = model();
    let t = track(
        Interpolation::Linear,
        vec![
            Key::at(0, 0.0f32),
            Key::at(1000, 1.0),
            Key::at(2000, 5.0),
            Key::at(3000, 7.0),
        ],
    );
    assert!(close(at(&m, &t, 1, 0.0), 5.0));
    assert!(close(at(&m, &t, 1, 500.0), 6.0));
    assert!(close(at(&m, &t, 0, 500.0), 0.5));
    // The interval's end is inside it, but a looping sequence wraps there: 1000 ms into a
    // 1000 ms loop is its start again.
    assert!(close(at(&m, &t, 0, 1000.0), 0.0));
    assert!(close(at(&m, &t, 0, 999.0), 0.999));
    // Sequence 2 [4000, 5000] has no keys: the static value.
    let time = AnimTime::new(Some(2), 100.0);
    assert_eq!(sample_or(&m, &t, time, 42.0), 42.0);
}

#[test]
fn before_the_first_and_after_the_last_key_the_nearest_key_holds() {
    // Sequence 1 is [2000, 3000]; keys at 2200 and 2800 only.
    let m = model();
    let t = track(
        Interpolation::Linear,
        vec![Key::at(2200, 1.0f32), Key::at(2800, 2.0)],
    );
    assert_eq!(at(&m, &t, 1, 0.0), 1.0);
    assert_eq!(at(&m, &t, 1, 100.0), 1.0);
    assert!(close(at(&m, &t, 1, 500.0), 1.5));
    assert_eq!(at(&m, &t, 1, 900.0), 2.0);
    // One key: its value everywhere in the interval.
    let one = track(Interpolation::Linear, vec![Key::at(2500, 7.0f32)]);
    assert_eq!(at(&m, &one, 1, 0.0), 7.0);
    assert_eq!(at(&m, &one, 1, 999.0), 7.0);
}

#[test]
fn non_looping_sequences_stop_at_their_end() {
    let m = model();
    let t = track(
        Interpolation::Linear,
        vec![Key::at(4000, 0.0f32), Key::at(5000, 10.0)],
    );
    assert!(close(at(&m, &t, 2, 500.0), 5.0));
    assert!(close(at(&m, &t, 2, 1500.0), 10.0));
    assert!(close(at(&m, &t, 2, -10.0), 0.0));
    // A looping one wraps, also backwards: -250 ms is 750 ms into sequence 0.
    let t0 = track(
        Interpolation::Linear,
        vec![Key::at(0, 0.0f32), Key::at(1000, 10.0)],
    );
    assert!(close(at(&m, &t0, 0, 1250.0), 2.5));
    assert!(close(at(&m, &t0, 0, -250.0), 7.5));
}

#[test]
fn keys_out_of_order_and_duplicate_times() {
    let m = model();
    // Stored backwards: read in time order.
    let t = track(
        Interpolation::Linear,
        vec![Key::at(100, 1.0f32), Key::at(0, 0.0)],
    );
    assert!(close(at(&m, &t, 0, 50.0), 0.5));
    // Two keys at 100: the last stored (3) wins, on both sides.
    let d = track(
        Interpolation::Linear,
        vec![
            Key::at(0, 0.0f32),
            Key::at(100, 1.0),
            Key::at(100, 3.0),
            Key::at(200, 5.0),
        ],
    );
    assert!(close(at(&m, &d, 0, 100.0), 3.0));
    assert!(close(at(&m, &d, 0, 50.0), 1.5));
    assert!(close(at(&m, &d, 0, 150.0), 4.0));
}

#[test]
fn global_sequences_run_on_their_own_clock() {
    let m = model();
    let mut t = track(
        Interpolation::Linear,
        vec![Key::at(0, 0.0f32), Key::at(1000, 10.0)],
    );
    t.global_sequence_id = 0; // 1000 ms long
                              // 2500 ms on the global clock is 500 ms into the loop, whatever sequence plays.
    for s in [Some(0), Some(1), None] {
        let time = AnimTime {
            sequence: s,
            elapsed_ms: 0.0,
            global_ms: 2500.0,
        };
        assert!(close(sample_or(&m, &t, time, -1.0), 5.0));
    }
    // A global sequence of length 0 stands at 0 and may use any key.
    let mut z = track(Interpolation::Linear, vec![Key::at(500, 3.0f32)]);
    z.global_sequence_id = 1;
    assert_eq!(sample_or(&m, &z, AnimTime::new(None, 123.0), -1.0), 3.0);
    // A global sequence the model does not have: the static value.
    z.global_sequence_id = 7;
    assert_eq!(sample_or(&m, &z, AnimTime::new(Some(0), 0.0), -1.0), -1.0);
}

#[test]
fn the_static_value_applies_without_a_sequence_or_a_track() {
    let m = model();
    let t = track(
        Interpolation::Linear,
        vec![Key::at(0, 1.0f32), Key::at(1000, 2.0)],
    );
    assert_eq!(sample_or(&m, &t, AnimTime::new(None, 10.0), 9.0), 9.0);
    let clock = Clock::new(&m, AnimTime::new(Some(0), 10.0));
    assert_eq!(clock.sample::<f32>(None, 9.0), 9.0);
    // A sequence index past the end is no sequence.
    assert_eq!(sample_or(&m, &t, AnimTime::new(Some(99), 10.0), 9.0), 9.0);
}

// ---------------------------------------------------------------------------------------
// The node hierarchy and skinning, by hand
// ---------------------------------------------------------------------------------------

use super::math::transform_point;
use super::mesh::posed_geosets;
use super::skeleton::Skeleton;
use crate::model::{node_flags, Animation, AnyTrack, Bone, Geoset, Node, Tracks};
use crate::spec::track::{KGRT, KGSC, KGTR};

fn close3(a: [f32; 3], b: [f32; 3]) -> bool {
    (0..3).all(|i| (a[i] - b[i]).abs() < 1e-5)
}

/// A bone with one constant key per given track, in sequence 0.
fn bone(id: u32, parent: i32, flags: u32, tracks: Vec<Animation>) -> Bone {
    Bone {
        node: Node {
            object_id: id,
            parent_id: parent,
            flags,
            tracks: Tracks(tracks),
            ..Default::default()
        },
        geoset_id: -1,
        geoset_animation_id: -1,
    }
}

fn still<T: Copy>(v: T) -> Track<T> {
    track(Interpolation::Linear, vec![Key::at(0, v)])
}

fn rotate_z(degrees: f32) -> Animation {
    Animation {
        tag: KGRT,
        track: AnyTrack::Quaternion(still(qaxis_angle([0.0, 0.0, 1.0], deg(degrees)))),
    }
}

fn translate(v: [f32; 3]) -> Animation {
    Animation {
        tag: KGTR,
        track: AnyTrack::Vector3(still(v)),
    }
}

fn scale_by(v: [f32; 3]) -> Animation {
    Animation {
        tag: KGSC,
        track: AnyTrack::Vector3(still(v)),
    }
}

/// Bone 0 at the origin, animated by `parent`; bone 1 its child with pivot (1, 0, 0).
fn two_bones(parent: Vec<Animation>, child_flags: u32) -> Model {
    Model {
        bones: vec![bone(0, -1, 0, parent), bone(1, 0, child_flags, Vec::new())],
        pivot_points: vec![[0.0; 3], [1.0, 0.0, 0.0]],
        ..model()
    }
}

/// Where bone `i` takes the point `p` in sequence 0 at time 0.
fn moved(m: &Model, i: usize, p: [f32; 3]) -> [f32; 3] {
    let pose = Skeleton::new(m).pose(AnimTime::new(Some(0), 0.0), None);
    transform_point(&pose.nodes[i].world, p)
}

#[test]
fn children_follow_their_parents_about_the_parents_pivot() {
    // The parent turns 90 degrees about Z at the origin: the child's pivot (1, 0, 0) goes
    // to (0, 1, 0), and a point one further out along X, (2, 0, 0), to (0, 2, 0).
    let m = two_bones(vec![rotate_z(90.0)], 0);
    assert!(close3(moved(&m, 1, [1.0, 0.0, 0.0]), [0.0, 1.0, 0.0]));
    assert!(close3(moved(&m, 1, [2.0, 0.0, 0.0]), [0.0, 2.0, 0.0]));
    // Without a sequence nothing moves.
    let pose = Skeleton::new(&m).pose(AnimTime::new(None, 0.0), None);
    assert!(close3(
        transform_point(&pose.nodes[1].world, [2.0, 0.0, 0.0]),
        [2.0, 0.0, 0.0]
    ));
}

#[test]
fn dont_inherit_rotation_moves_the_pivot_but_keeps_the_orientation() {
    // The child's pivot still goes to (0, 1, 0), but (2, 0, 0), one unit along X from the
    // pivot, stays one unit along X from it: (1, 1, 0).
    let m = two_bones(vec![rotate_z(90.0)], node_flags::DONT_INHERIT_ROTATION);
    assert!(close3(moved(&m, 1, [1.0, 0.0, 0.0]), [0.0, 1.0, 0.0]));
    assert!(close3(moved(&m, 1, [2.0, 0.0, 0.0]), [1.0, 1.0, 0.0]));
}

#[test]
fn dont_inherit_translation_keeps_the_pivot_in_place() {
    let m = two_bones(
        vec![translate([0.0, 0.0, 5.0])],
        node_flags::DONT_INHERIT_TRANSLATION,
    );
    assert!(close3(moved(&m, 1, [1.0, 0.0, 0.0]), [1.0, 0.0, 0.0]));
    // The parent itself did move.
    assert!(close3(moved(&m, 0, [1.0, 0.0, 0.0]), [1.0, 0.0, 5.0]));
    // And a child that inherits moves with it.
    let m = two_bones(vec![translate([0.0, 0.0, 5.0])], 0);
    assert!(close3(moved(&m, 1, [1.0, 0.0, 0.0]), [1.0, 0.0, 5.0]));
}

#[test]
fn dont_inherit_scaling_moves_the_pivot_but_keeps_the_size() {
    // The parent doubles about the origin: the pivot (1, 0, 0) goes to (2, 0, 0). A point
    // one unit past the pivot stays one unit past it, (3, 0, 0), instead of two, (4, 0, 0).
    let m = two_bones(vec![scale_by([2.0; 3])], node_flags::DONT_INHERIT_SCALING);
    assert!(close3(moved(&m, 1, [2.0, 0.0, 0.0]), [3.0, 0.0, 0.0]));
    let m = two_bones(vec![scale_by([2.0; 3])], 0);
    assert!(close3(moved(&m, 1, [2.0, 0.0, 0.0]), [4.0, 0.0, 0.0]));
}

#[test]
fn parent_cycles_and_missing_parents_do_not_hang() {
    let m = Model {
        bones: vec![
            bone(0, 1, 0, vec![translate([1.0, 0.0, 0.0])]),
            bone(1, 0, 0, vec![translate([0.0, 1.0, 0.0])]),
            bone(2, 99, 0, Vec::new()),
        ],
        pivot_points: vec![[0.0; 3]; 3],
        ..model()
    };
    let s = Skeleton::new(&m);
    assert_eq!(s.cycles.len(), 1);
    assert_eq!(s.nodes[2].parent, None);
    let pose = s.pose(AnimTime::new(Some(0), 0.0), None);
    // One of the two is the root now; the other adds its own move to the root's.
    let a = transform_point(&pose.nodes[0].world, [0.0; 3]);
    let b = transform_point(&pose.nodes[1].world, [0.0; 3]);
    assert!(
        close3(a, [1.0, 1.0, 0.0]) || close3(b, [1.0, 1.0, 0.0]),
        "{a:?} {b:?}"
    );
}

#[test]
fn billboards_face_the_view_only_when_one_is_given() {
    let m = Model {
        bones: vec![bone(0, -1, node_flags::BILLBOARDED, vec![rotate_z(30.0)])],
        pivot_points: vec![[0.0, 0.0, 1.0]],
        ..model()
    };
    let s = Skeleton::new(&m);
    let at = AnimTime::new(Some(0), 0.0);
    let without = s.pose(at, None);
    assert_eq!(
        (without.billboards_applied, without.billboards_ignored),
        (0, 1)
    );
    // The camera looks along +Y: the node's +X turns to -Y, toward the viewer, about its
    // pivot (0, 0, 1).
    let with = s.pose(at, Some([0.0, 1.0, 0.0]));
    assert_eq!((with.billboards_applied, with.billboards_ignored), (1, 0));
    let w = &with.nodes[0].world;
    assert!(close3(transform_point(w, [0.0, 0.0, 1.0]), [0.0, 0.0, 1.0]));
    assert!(close3(
        transform_point(w, [1.0, 0.0, 1.0]),
        [0.0, -1.0, 1.0]
    ));
    assert!(close3(transform_point(w, [0.0, 0.0, 2.0]), [0.0, 0.0, 2.0]));
}

fn geoset(vertices: Vec<[f32; 3]>) -> Geoset {
    Geoset {
        normals: vec![[0.0, 0.0, 1.0]; vertices.len()],
        vertices,
        ..Default::default()
    }
}

#[test]
fn vertex_groups_follow_the_average_of_their_bones() {
    // Bone 0 moves up 2, bone 1 turns 90 degrees about Z at (1, 0, 0). Vertex 0 is in
    // group 0 (bone 0): (1, 0, 0) -> (1, 0, 2). Vertex 1 is in group 1 (bones 0 and 1):
    // (2, 0, 0) goes to (2, 0, 2) with bone 0 and to (1, 1, 0) with bone 1; on average
    // (1.5, 0.5, 1).
    let mut m = Model {
        bones: vec![
            bone(0, -1, 0, vec![translate([0.0, 0.0, 2.0])]),
            bone(1, -1, 0, vec![rotate_z(90.0)]),
        ],
        pivot_points: vec![[0.0; 3], [1.0, 0.0, 0.0]],
        ..model()
    };
    let mut g = geoset(vec![[1.0, 0.0, 0.0], [2.0, 0.0, 0.0], [5.0, 5.0, 5.0]]);
    g.vertex_groups = vec![0, 1, 7]; // group 7 does not exist
    g.matrix_group_sizes = vec![1, 2];
    g.matrix_indices = vec![0, 0, 1];
    m.geosets.push(g);
    let s = Skeleton::new(&m);
    let at = AnimTime::new(Some(0), 0.0);
    let pose = s.pose(at, None);
    let posed = posed_geosets(&m, &s, &pose, &s.clock(at));
    let p = &posed[0];
    assert!(close3(p.positions[0], [1.0, 0.0, 2.0]));
    assert!(close3(p.positions[1], [1.5, 0.5, 1.0]));
    assert!(close3(p.positions[2], [5.0, 5.0, 5.0]));
    assert_eq!(p.unbound_vertices, 1);
    assert!(close3(p.normals[0], [0.0, 0.0, 1.0]));
    assert!(p.visible);
}

#[test]
fn skin_weights_blend_the_bones_they_name_through_the_matrix_list() {
    // The matrix list names bones 1 and 0 (in that order). Vertex 0: index 0 (bone 1) with
    // weight 255. Vertex 1: index 1 (bone 0) 51/255 = 0.2 and index 0 (bone 1) 204/255 = 0.8.
    let mut m = Model {
        bones: vec![
            bone(0, -1, 0, vec![translate([10.0, 0.0, 0.0])]),
            bone(1, -1, 0, vec![translate([0.0, 10.0, 0.0])]),
        ],
        pivot_points: vec![[0.0; 3]; 2],
        ..model()
    };
    let mut g = geoset(vec![[0.0; 3], [0.0; 3], [1.0, 1.0, 1.0]]);
    g.matrix_indices = vec![1, 0];
    g.skin = Some(vec![
        0, 0, 0, 0, 255, 0, 0, 0, //
        1, 0, 0, 0, 51, 204, 0, 0, //
        0, 0, 0, 0, 0, 0, 0, 0, // no weight: stays
    ]);
    m.geosets.push(g);
    let s = Skeleton::new(&m);
    let at = AnimTime::new(Some(0), 0.0);
    let pose = s.pose(at, None);
    let p = &posed_geosets(&m, &s, &pose, &s.clock(at))[0];
    assert!(close3(p.positions[0], [0.0, 10.0, 0.0]));
    assert!(close3(p.positions[1], [2.0, 8.0, 0.0]));
    assert!(close3(p.positions[2], [1.0, 1.0, 1.0]));
    assert_eq!(p.unbound_vertices, 1);
}

#[test]
fn geoset_alpha_layer_alpha_and_texture_animation() {
    use crate::model::{GeosetAnimation, Layer, Material, TextureAnimation};
    use crate::spec::track::{KGAO, KMTA, KTAT};
    // Geoset 0 fades out over sequence 0 (alpha 1 at 0 ms, 0 at 1000 ms); geoset 1's
    // material has one layer at static alpha 0.5 and one whose alpha track is 0 in
    // sequence 1 only; the first layer of material 0 slides its UVs by (0.25, 0.5, 0).
    let fade = track(
        Interpolation::Linear,
        vec![Key::at(0, 1.0f32), Key::at(1000, 0.0)],
    );
    let layer0 = Layer {
        alpha: 1.0,
        texture_animation_id: 0,
        ..Default::default()
    };
    let half = Layer {
        alpha: 0.5,
        texture_animation_id: -1,
        ..Default::default()
    };
    let gone_in_1 = Layer {
        alpha: 1.0,
        texture_animation_id: -1,
        tracks: Tracks(vec![Animation {
            tag: KMTA,
            track: AnyTrack::Float(track(Interpolation::None, vec![Key::at(2000, 0.0f32)])),
        }]),
        ..Default::default()
    };
    let mut g0 = geoset(vec![[0.0; 3]]);
    g0.uv_sets = vec![vec![[0.5, 0.5]]];
    let mut g1 = geoset(vec![[0.0; 3]]);
    g1.material_id = 1;
    let m = Model {
        geosets: vec![g0, g1],
        materials: vec![
            Material {
                layers: vec![layer0],
                ..Default::default()
            },
            Material {
                layers: vec![half, gone_in_1],
                ..Default::default()
            },
        ],
        geoset_animations: vec![GeosetAnimation {
            alpha: 1.0,
            color: [1.0; 3],
            geoset_id: 0,
            tracks: Tracks(vec![Animation {
                tag: KGAO,
                track: AnyTrack::Float(fade),
            }]),
            ..Default::default()
        }],
        texture_animations: vec![TextureAnimation {
            tracks: Tracks(vec![Animation {
                tag: KTAT,
                track: AnyTrack::Vector3(still([0.25f32, 0.5, 0.0])),
            }]),
            ..Default::default()
        }],
        ..model()
    };
    let s = Skeleton::new(&m);
    let posed = |seq: usize, ms: f64| {
        let at = AnimTime::new(Some(seq), ms);
        posed_geosets(&m, &s, &s.pose(at, None), &s.clock(at))
    };
    let p = posed(0, 250.0);
    assert!(close(p[0].alpha, 0.75) && p[0].visible);
    assert_eq!(p[0].uvs, vec![[0.75, 1.0]]);
    // Geoset 1: the most opaque layer counts: 1 in sequence 0, 0.5 in sequence 1.
    assert!(close(p[1].layer_alpha, 1.0) && p[1].visible);
    let p = posed(0, 999.999);
    assert!(p[0].alpha < 1e-4);
    // At 1000 ms a looping sequence 1000 ms long is back at its start: alpha 1 again.
    let p = posed(1, 500.0);
    assert!(close(p[1].layer_alpha, 0.5) && p[1].visible);
    // The fade holds 0 at its end in a sequence that stops there: hidden.
    let m2 = Model {
        sequences: vec![seq(0, 1000, 1)],
        ..m.clone()
    };
    let s2 = Skeleton::new(&m2);
    let at = AnimTime::new(Some(0), 5000.0);
    let p = posed_geosets(&m2, &s2, &s2.pose(at, None), &s2.clock(at));
    assert!(p[0].alpha == 0.0 && !p[0].visible);
}
