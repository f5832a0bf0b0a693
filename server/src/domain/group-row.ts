/**
 * A stored group, as every module that reads one sees it. It lives apart from `groups.ts` because
 * memberships need it for their roles (§2.6) while groups need memberships for visibility.
 */
export interface GroupRow {
  id: number
  name: string
  description: string
  image_url: string | null
  type: 'private' | 'closed' | 'announcement'
  creator_user_id: number
  share_token: string | null
  office_mode: number
  requires_approval: number
  show_join_question: number
  join_question_text: string
  like_icon: string | null
  visibility: string
  message_deletion_mode: string
  theme_name: string | null
  created_at: number
  updated_at: number
  /** Set by G7; a destroyed group is invisible everywhere. */
  destroyed_at: number | null
}
