import { Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { NO_ACCESS_MESSAGE, RequireAdmin, RequireToken } from '../features/auth/guards.tsx';
import { getUsers } from '../features/users/users-api.ts';
import { formatDateTime } from '../shared/format-date.ts';
import { FormAlert } from '../shared/form-alert.tsx';
import { ApiRequestError } from '../shared/http.ts';
import { Page } from '../shared/page.tsx';
import { PageLoader } from '../shared/page-loader.tsx';
import { ScrollRegion } from '../shared/scroll-region.tsx';

export { NO_ACCESS_MESSAGE };

/**
 * The user list (subscriptions-and-payments §2 "User list"), for administrators only: the spec's
 * list open to every signed-in user is a defect (§6), so the server answers 403 to others.
 */
export function UserListRoute() {
  return (
    <RequireToken>
      <Page title="Users" size="xl">
        <RequireAdmin>
          <UserList />
        </RequireAdmin>
      </Page>
    </RequireToken>
  );
}

function UserList() {
  const users = useQuery({ queryKey: ['users'], queryFn: getUsers });

  if (users.isPending) return <PageLoader />;
  if (users.isError) {
    const forbidden = users.error instanceof ApiRequestError && users.error.status === 403;
    return (
      <FormAlert tone="error">{forbidden ? NO_ACCESS_MESSAGE : users.error.message}</FormAlert>
    );
  }
  if (users.data.length === 0) return <Text>There are no users yet.</Text>;

  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        {users.data.length === 1 ? '1 user' : `${users.data.length} users`}
      </Text>
      <ScrollRegion label="Users" minWidth={760}>
        <Table striped highlightOnHover withTableBorder>
          <VisuallyHidden component="caption">Users, with when they last signed in</VisuallyHidden>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">First Name</Table.Th>
              <Table.Th scope="col">Last Name</Table.Th>
              <Table.Th scope="col">Email</Table.Th>
              <Table.Th scope="col">Address</Table.Th>
              <Table.Th scope="col">Zip</Table.Th>
              <Table.Th scope="col">Last Login</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {users.data.map((user) => (
              <Table.Tr key={user.emailID}>
                <Table.Td>{user.firstName}</Table.Td>
                <Table.Td>{user.lastName}</Table.Td>
                <Table.Td>{user.emailID}</Table.Td>
                <Table.Td>{user.address}</Table.Td>
                <Table.Td>{user.zip}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  {formatDateTime(user.lastLogin)}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollRegion>
    </Stack>
  );
}
